// Starts Swagger UI on /docs (app/routes/docs.py). A file rather than an inline script, so
// the page runs under the site's Content-Security-Policy; not part of dist/app.js.
// SwaggerUIBundle comes from dist/swagger-ui/swagger-ui-bundle.js, loaded just before.
const root = document.getElementById('swagger-ui');
window.ui = SwaggerUIBundle({
  url: root.dataset.openapiUrl,
  domNode: root,
  layout: 'BaseLayout',
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis],
  validatorUrl: null, // never ask an outside validator about our schema
});
