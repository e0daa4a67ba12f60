/** A file of the generated project, path relative to the output folder (always `/`-separated). */
export interface EmittedFile {
  path: string;
  content: string;
  /**
   * Created once, never overwritten: written only when absent from the output folder, then the
   * user's (e.g. `src/custom/*`). Not hash-checked and never deleted by a later regeneration.
   */
  once?: boolean;
  /** The content already merges the user's version on disk (package.json): never a hand-edit conflict. */
  merged?: boolean;
  /** Laid out as it is to be written (bulk JSON data): the format stage leaves it alone. */
  formatted?: boolean;
}
