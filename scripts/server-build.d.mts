export declare const repositoryRoot: string;
export declare const BUILT_NOK: string;
export declare function serverBuildProblem(root?: string): string | null;
export declare function buildServer(root?: string): void;
