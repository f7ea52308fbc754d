"""HTTP routes, one module per resource. Each is thin: parse, call app.games, render.

- deps: what routes share (the service, the caller, the game a path names, strict JSON).
- models: the JSON API's request and response shapes (the OpenAPI contract).
- api_games: the JSON game API (/api/games…), the public contract; api_go: Go's own (SGF in
  and out, analysis of a position, a game branched from one).
- api_tictactoe, api_knights_tour: stateless engine endpoints (/api/<game>/…).
- ui: what every game's HTML fragments share; ui_<game>: one game's fragments (/ui/<game>/…);
  go_board: what the Go widget draws.
- pages: the SPA shell for every other page path. docs: /docs (OpenAPI explorer).
"""
