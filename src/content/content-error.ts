/** One mistake in a content file, as every check reports it and load.ts formats it. */
export interface ContentError {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Dotted path of the field, e.g. `home.form.submit`; empty for syntax errors. */
  field: string;
  /** What is wrong and, where there is one, how to fix it, in plain English. */
  message: string;
  /** An example of a valid value for the field, when the schema gives one. */
  example?: string;
}

/** Turns an offset in the file into a 1-based line and column. */
export type Locate = (offset: number) => { line: number; column: number };
