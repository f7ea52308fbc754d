/**
 * Entry point of the front end (bundled by Rollup into dist/app.js). Start here: the
 * route table below maps paths to views; router.js does the history work, the views
 * fetch server-rendered fragments, and htmx wires those fragments up.
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

const routes = [
  { pattern: /^\/$/, view: pages.home },
  { pattern: /^\/games\/?$/, view: pages.myGames },
  { pattern: /^\/tictactoe\/?$/, view: tictactoe.resume },
  { pattern: /^\/tictactoe\/(?<id>[A-Za-z0-9_-]+)\/?$/, view: tictactoe.game },
  { pattern: /^\/go\/?$/, view: go.resume },
  { pattern: /^\/go\/(?<id>[A-Za-z0-9_-]+)\/?$/, view: go.game },
  { pattern: /^\/knights-tour\/?$/, view: knightsTour.resume },
  { pattern: /^\/knights-tour\/(?<id>[A-Za-z0-9_-]+)\/?$/, view: knightsTour.game },
];

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
