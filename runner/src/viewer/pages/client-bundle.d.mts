export declare const VIEWER_CLIENT_ENTRY: string;
export declare function bundleViewerClient(): Promise<string>;
