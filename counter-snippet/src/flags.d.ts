// Compile-time feature flags. build.mjs replaces them with true or false through esbuild's
// `define`, and the minifier drops the code behind a false flag, so a build carries only its
// features. Type-checking sees them as plain booleans.

/** Block analytics: clicks on and shows of elements marked with the block attribute. */
declare const COMPILE_BLOCKS: boolean;
/** Reading depth on article pages: deepest scroll and read-through percents. */
declare const COMPILE_READING: boolean;
