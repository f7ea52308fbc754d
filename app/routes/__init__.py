"""HTTP routes, one module per resource. Each is thin: parse, call app.games, render. A
module with a router imports no other one (tests/test_route_imports.py); what several
share is in the modules without routes: deps, fragments, models, go_board, games_list.

- deps: what routes share (the service, the caller, the game a path names, strict JSON).
- fragments: what every game's HTML fragments share (acting as the caller, the table of
  seats and clocks, names, rematches, the not-found views).
- models: the JSON API's request and response shapes (the OpenAPI contract).
- api_games: the JSON game API (/api/games…), the public contract; api_go: Go's own (SGF in
  and out, analysis of a position, a game branched from one).
- api_tictactoe, api_knights_tour: stateless engine endpoints (/api/<game>/…).
- ui: the home page, this browser's games (words from games_list) and the page-not-found
  view; ui_<game>: one game's fragments (/ui/<game>/…); ui_chat: a friend game's chat;
  go_board: what the Go widget draws.
- pages: the SPA shell for every other page path. docs: /docs (OpenAPI explorer).
"""
