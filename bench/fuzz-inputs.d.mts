/** Types of fuzz-inputs.mjs for the tests that import it. */
export declare function random(seed: number): () => number;
export declare function mutate(text: string, rnd: () => number): string;
export declare function mutatedSpecs(spec: string, count: number, seed?: number): Generator<{ kind: string; text: string }>;
export declare function heavySpecs(spec: string): Array<{ kind: string; text: string }>;
