export declare function dependenciesProblem(root?: string): string | null;
export declare function ensureDependencies(root?: string, log?: (line: string) => void): number;
