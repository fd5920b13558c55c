export declare const repositoryRoot: string;
export declare function consoleBuildProblem(root?: string): string | null;
export declare function buildConsole(root?: string): void;
