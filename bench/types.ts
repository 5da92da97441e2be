/** One measured figure, printed beside the floor it is compared with. */
export interface BenchFigure {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The same quantity for the floor measured in the same run, when there is one. */
  floor?: number;
  /** value / floor (or floor / value for "lower is better" figures), as the target is phrased. */
  ratio?: number;
  /** The target in words, e.g. ">= 20% of floor" or "< 100 ms". */
  target?: string;
  pass?: boolean;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchFigure[]>;
}
