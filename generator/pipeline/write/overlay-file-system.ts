/**
 * The output folder as a regeneration would leave it, for the TypeScript compiler (check-custom.ts):
 * ts-morph's file system host over the real one, with the new contents of the files this run writes
 * in memory and the files it deletes hidden. Nothing is ever written through it. The compiler reads
 * only what the checked files reach, so a big API's thousands of generated files cost nothing unless
 * the user's code imports them.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FileSystemHost, RuntimeDirEntry } from "ts-morph";

/** The error Node gives for a missing file (ts-morph tells "not found" from other failures by `code`). */
function notFound(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: "ENOENT" });
}

function refuse(): never {
  throw new Error("the overlay file system is read-only: nothing is written while checking");
}

/** A read-only view of the disk with files replaced, added (`overlay`) or removed (`hidden`); absolute `/`-separated paths. */
export class OverlayFileSystem implements FileSystemHost {
  /** Folders that exist because an overlaid file lies in them. */
  private readonly folders = new Set<string>();

  constructor(
    private readonly cwd: string,
    private readonly overlay: ReadonlyMap<string, string>,
    private readonly hidden: ReadonlySet<string>,
  ) {
    for (const path of overlay.keys())
      for (let dir = dirname(path); !this.folders.has(dir) && dir !== dirname(dir); dir = dirname(dir))
        this.folders.add(dir);
  }

  isCaseSensitive(): boolean {
    return process.platform !== "win32" && process.platform !== "darwin";
  }

  readFileSync(filePath: string): string {
    const text = this.overlay.get(filePath);
    if (text !== undefined) return text;
    if (this.hidden.has(filePath)) throw notFound(filePath);
    return readFileSync(filePath, "utf8");
  }

  async readFile(filePath: string): Promise<string> {
    return this.readFileSync(filePath);
  }

  fileExistsSync(filePath: string): boolean {
    if (this.overlay.has(filePath)) return true;
    if (this.hidden.has(filePath)) return false;
    try {
      return statSync(filePath).isFile();
    } catch {
      return false;
    }
  }

  async fileExists(filePath: string): Promise<boolean> {
    return this.fileExistsSync(filePath);
  }

  directoryExistsSync(dirPath: string): boolean {
    if (this.folders.has(dirPath)) return true;
    try {
      return statSync(dirPath).isDirectory();
    } catch {
      return false;
    }
  }

  async directoryExists(dirPath: string): Promise<boolean> {
    return this.directoryExistsSync(dirPath);
  }

  readDirSync(dirPath: string): RuntimeDirEntry[] {
    const entries = new Map<string, RuntimeDirEntry>();
    if (existsSync(dirPath)) {
      for (const entry of readdirSync(dirPath, { withFileTypes: true })) {
        const name = join(dirPath, entry.name);
        if (this.hidden.has(name)) continue;
        let isFile = entry.isFile();
        let isDirectory = entry.isDirectory();
        if (entry.isSymbolicLink()) {
          try {
            const target = statSync(name);
            isFile = target.isFile();
            isDirectory = target.isDirectory();
          } catch {
            // a dangling link: neither
          }
        }
        entries.set(name, { name, isFile, isDirectory, isSymlink: entry.isSymbolicLink() });
      }
    }
    for (const path of [...this.overlay.keys(), ...this.folders]) {
      if (dirname(path) === dirPath && !entries.has(path))
        entries.set(path, {
          name: path,
          isFile: this.overlay.has(path),
          isDirectory: this.folders.has(path),
          isSymlink: false,
        });
    }
    return [...entries.values()];
  }

  realpathSync(path: string): string {
    if (this.overlay.has(path) || this.folders.has(path)) return path;
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  }

  getCurrentDirectory(): string {
    return this.cwd;
  }

  /** Not used: the checked files are added by path. */
  globSync(): string[] {
    return [];
  }

  async glob(): Promise<string[]> {
    return [];
  }

  delete(): Promise<void> {
    return Promise.reject(new Error("the overlay file system is read-only"));
  }
  deleteSync(): void {
    refuse();
  }
  writeFile(): Promise<void> {
    return Promise.reject(new Error("the overlay file system is read-only"));
  }
  writeFileSync(): void {
    refuse();
  }
  mkdir(): Promise<void> {
    return Promise.reject(new Error("the overlay file system is read-only"));
  }
  mkdirSync(): void {
    refuse();
  }
  move(): Promise<void> {
    return Promise.reject(new Error("the overlay file system is read-only"));
  }
  moveSync(): void {
    refuse();
  }
  copy(): Promise<void> {
    return Promise.reject(new Error("the overlay file system is read-only"));
  }
  copySync(): void {
    refuse();
  }
}
