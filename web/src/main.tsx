/**
 * The entry: starts what the page at this address needs (app/preload.ts), then the app. This file
 * and what it imports stay small, so that the calls start before the browser has parsed React and
 * the screens; the app's chunk (app/start.tsx) loads meanwhile (index.html names it, see
 * vite.config.ts).
 */
import { preloadForPath } from './app/preload';
import './app/global.css';

preloadForPath(window.location.pathname, window.location.search);
void import('./app/start');
