/**
 * Entry point of the front end (bundled by Rollup into dist/app.js). Start here: the
 * route table below maps paths to views; router.js does the history work, the views
 * fetch server-rendered fragments, and htmx wires those fragments up. The game kinds'
 * routes come from the server's table of kinds (app/games/kinds.py), which the shell
 * carries in <meta name="tabletop-kinds">; each kind's views are its module in views/.
 */
import { createRouter } from './router.js';
import { enableBoardKeys } from './board-keys.js';
import { enableChat } from './chat.js';
import { enableCopyButtons } from './live.js';
import { enableLocalTimes } from './local-times.js';
import { enableTroubleShooting, serverBack } from './trouble.js';
import * as pages from './views/pages.js';
import * as tictactoe from './views/tictactoe.js';
import * as go from './views/go.js';
import * as knightsTour from './views/knights-tour.js';

/** Each kind's view module, by the kind's name in URLs (the server's table names them). */
const VIEWS = { tictactoe, go, 'knights-tour': knightsTour };

/** The route table: the pages of no game, then each kind's bare path (resume or start a
 * game) and its games' own paths, /<kind>/<id> (a kind is lower-case letters and hyphens,
 * so it needs no escaping). A kind the page names but no module here shows is a build
 * mistake, said at once rather than as a not-found page. */
function routeTable(table) {
  const routes = [
    { pattern: /^\/$/, view: pages.home },
    { pattern: /^\/games\/?$/, view: pages.myGames },
  ];
  for (const kind of table.kinds) {
    const views = VIEWS[kind];
    if (!views) throw new Error(`No views for the game kind ${kind}`);
    routes.push(
      { pattern: new RegExp(`^/${kind}/?$`), view: views.resume },
      { pattern: new RegExp(`^/${kind}/(?<id>${table.id})/?$`), view: views.game },
    );
  }
  return routes;
}

const routes = routeTable(
  JSON.parse(document.querySelector('meta[name="tabletop-kinds"]').content),
);

const router = createRouter({
  routes,
  notFound: pages.notFound,
  outlet: document.getElementById('main'),
  announcer: document.getElementById('announcer'),
  siteName: 'Tabletop',
  serverBack,
});

enableBoardKeys();
enableCopyButtons();
enableChat();
enableLocalTimes();
enableTroubleShooting();
tictactoe.watchValuesToggle();
go.enableGoView();
knightsTour.enableSolutionPlayer();
router.start();
