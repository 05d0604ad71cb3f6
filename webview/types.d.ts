// esbuild loads .css as text (scripts/build.mjs); the panel adopts it as a constructed stylesheet.
declare module '*.css' {
  const text: string;
  export default text;
}
