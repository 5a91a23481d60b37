declare const __MURMUR_BUILD_ID__: string;
declare const __MURMUR_BUILD_TIME__: string;

/** Fixed at build time by vite.config.ts, identical in the server and browser bundles. */
export const BUILD_ID: string = typeof __MURMUR_BUILD_ID__ === "string" ? __MURMUR_BUILD_ID__ : "dev";
export const BUILD_TIME: string = typeof __MURMUR_BUILD_TIME__ === "string" ? __MURMUR_BUILD_TIME__ : new Date(0).toISOString();
