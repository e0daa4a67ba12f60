/**
 * The files the emit worker makes (emit-worker.ts): the project's TypeScript and the operation
 * declarations (typescript-files.ts), and the operation search index (search-index.ts). Both are
 * CPU work on data the plan already holds, so for a big API they run in a worker thread while the
 * main thread emits the other files. The input is plain data (structured-cloned to the thread;
 * project-files.ts `workerInput` makes it), and this module imports only what the thread needs.
 */
import type { SearchDocument } from "../../../shared/contract.js";
import { writeDeclarations } from "../data/data-files.js";
import { DECLARATION_OFFSETS_PATH, DECLARATIONS_DATA_PATH } from "../data/data-paths.js";
import type { EmittedFile } from "../emitted-file.js";
import { formatFiles } from "../format.js";
import { DataFileWriter, packAbove, packLargeFiles } from "../data/packed-files.js";
import { SEARCH_INDEX_PATH, searchIndexFromDocuments } from "../data/search-index.js";
import { isTsMorphLoaded } from "../typescript/ts-morph.js";
import { printTypeScript, type PrintedTypeScript, type TypeScriptInput } from "../typescript/typescript-files.js";

/** What the worker makes its files from. */
export interface WorkerInput {
  /** The tool names, in tool order (the order of the declarations' offsets). */
  toolNames: string[];
  /** The project's features: with `large-data`, the declarations get an offsets file and large files are packed. */
  features: readonly string[];
  typeScript: TypeScriptInput;
  /** The search index's documents, one per tool in tool order; absent without the search feature (no index). */
  searchDocuments?: SearchDocument[];
}

/**
 * What the worker makes: its files, the large data files already packed (packed-files.ts), so the
 * thread does that work and hands over the small form.
 */
export interface WorkerOutput {
  files: EmittedFile[];
  /** What printed the TypeScript (typescript-files.ts): "text" when ts-morph was not needed. */
  printer: PrintedTypeScript["printer"];
  /** Whether the thread that made the files had loaded ts-morph by then. */
  tsMorphLoaded: boolean;
}

/**
 * Makes the worker's output (in the worker thread, or in this one when the thread failed). Deterministic.
 * Takes `input` over: its TypeScript part is let go once printed (on a big API the largest thing the
 * thread holds besides what it prints), before the declarations are written.
 */
export function workerOutput(input: WorkerInput): WorkerOutput {
  const typeScript = printTypeScript(input.typeScript);
  (input as { typeScript?: TypeScriptInput }).typeScript = undefined;
  const packed = packAbove(input.features);
  const files = [...typeScript.files, ...declarationsFiles(typeScript.declarations, input.toolNames, packed)];
  if (input.searchDocuments)
    files.push(
      ...packLargeFiles(
        [{ path: SEARCH_INDEX_PATH, content: searchIndexFromDocuments(input.searchDocuments), formatted: true }],
        packed,
      ),
    );
  return { files, printer: typeScript.printer, tsMorphLoaded: isTsMorphLoaded() };
}

/**
 * `workerOutput` with its files formatted (format.ts), as the pipeline joins them to the others:
 * the thread formats them itself, with the prettier it loaded while it waited for the plan
 * (`warmFormatter`), so that a big API's main thread, whose own files are either left as printed
 * or JSON that format.ts lays out, never loads prettier.
 */
export async function formattedWorkerOutput(input: WorkerInput): Promise<WorkerOutput> {
  const toolCount = input.toolNames.length;
  const output = workerOutput(input);
  return { ...output, files: await formatFiles(output.files, toolCount) };
}

/** The worker's output as files: the TypeScript, the declarations' data files (tool order), the search index. */
export function workerFiles(output: WorkerOutput): EmittedFile[] {
  return output.files;
}

/**
 * `data/declarations.json`: tool name → TypeScript declaration (see declarations.ts), one per line,
 * packed as it is written when over `packed` characters (packed-files.ts), and, with feature
 * `large-data` (`packed` finite), `data/declaration-offsets.txt`: where each tool's is in it, in
 * tool order (runtime/src/features/large-data/offsets-file.ts).
 */
function declarationsFiles(
  declarations: Record<string, string>,
  toolNames: readonly string[],
  packed: number,
): EmittedFile[] {
  const writer = new DataFileWriter(DECLARATIONS_DATA_PATH, packed);
  const offsets = writeDeclarations(writer, declarations, toolNames);
  const offsetsFile = { path: DECLARATION_OFFSETS_PATH, content: offsets, formatted: true };
  return [...writer.files(), ...(packed === Infinity ? [] : [offsetsFile])];
}
