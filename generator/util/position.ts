/**
 * A position in an input: the file (relative to the config's folder), the 1-based line and column. The ground floor
 * that diagnostics and the model both import (issue 27): every model node and every message carries one.
 */
export interface Source {
  file: string;
  line: number;
  column: number;
}
