// Front-end build: bundles static/js/main.js into dist/app.js and copies the shell
// (static/index.html) into dist/index.html with a small copy-and-watch plugin, so
// `rollup -c -w` re-copies the shell whenever it changes. Production builds are
// minified and keep a source map; watch builds skip minifying to stay fast.
// It also copies Swagger UI (the swagger-ui-dist version pinned in package.json) into
// dist/swagger-ui/ for /docs (app/routes/docs.py), so no page loads it from a CDN.
import fs from 'node:fs';
import terser from '@rollup/plugin-terser';

const watching = Boolean(process.env.ROLLUP_WATCH);

/** Copies `source` into the bundle as `fileName`, and watches it in watch mode unless
 * `watch` is false (files under node_modules change only with package-lock.json). */
function copyAndWatch(source, fileName, { watch = true } = {}) {
  return {
    name: 'copy-and-watch',
    buildStart() {
      // Registering the file once per build (not in `load`, which runs per module)
      // makes Rollup rebuild when only the shell changed.
      if (watch) this.addWatchFile(source);
    },
    generateBundle() {
      // emitFile hands the write to Rollup, so the copy lands with the bundle.
      this.emitFile({ type: 'asset', fileName, source: fs.readFileSync(source) });
    },
  };
}

const swaggerUiFiles = [
  'swagger-ui-bundle.js', 'swagger-ui.css',
  'LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt',
];

export default {
  input: 'static/js/main.js',
  output: {
    file: 'dist/app.js',
    format: 'es',
    sourcemap: true,
  },
  plugins: [
    copyAndWatch('static/index.html', 'index.html'),
    // What /docs loads, with the licence, notice and the bundle's third-party licences.
    ...swaggerUiFiles.map((name) =>
      copyAndWatch(`node_modules/swagger-ui-dist/${name}`, `swagger-ui/${name}`, { watch: false }),
    ),
    !watching && terser({ format: { comments: false } }),
  ],
  watch: { clearScreen: false },
};
