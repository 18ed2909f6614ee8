// FudgeTable's service worker: keeps, on this device, the last copy of each page the server
// marks for it (a sheet, a table, the pages that lead to them, drawn for this person), so a
// phone that loses its signal can still read them; and the files those pages use. Nothing is
// sent from here: commands go to the server or not at all. fudgetable/offline.py serves this
// file with CONFIG filled in; docs/architecture.md ("Offline") says what is kept and when it goes.
"use strict";

const CONFIG = {};
const PAGES = "fudgetable-pages-" + CONFIG.version;
const FILES = "fudgetable-files-" + CONFIG.version;
const PERSON = "/offline-copies-belong-to";
const UNTIL = "X-Until";  // on PERSON's entry: when their session ends (Unix seconds)

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(FILES).then((cache) => cache.addAll(CONFIG.pageFiles)).then(() => self.skipWaiting())
  );
});

// A new deploy's worker drops every cache of the versions before it.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("fudgetable-") && key !== PAGES && key !== FILES)
          .map((key) => caches.delete(key))
      ))
      .then(forgetIfEnded)
      .then(() => self.clients.claim())
  );
});

// The page tells its worker when its person logs out (offline.js), and the worker sees the
// log-out itself too: either way the copies go.
self.addEventListener("message", (event) => {
  if (event.data === "forget") event.waitUntil(caches.delete(PAGES));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === CONFIG.logout) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(request.method === "GET" ? page(event) : notSentWhenOffline(request));
    return;
  }
  if (request.method === "GET" && url.pathname.startsWith(CONFIG.staticUrl)) {
    event.respondWith(staticFile(request));
  }
});

// A page: from the network whenever it answers, keeping a copy of a marked one; offline, the
// copy, said to be one (offline.js reads data-offline-as-of and says so on the page).
async function page(event) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return offlineCopy(request);
  }
  const person = response.headers.get(CONFIG.marker);
  const until = response.headers.get(CONFIG.until);
  if (response.ok && person && until) {
    event.waitUntil(keep(request, response.clone(), person, until));
  } else {
    event.waitUntil(forgetIfEnded());
  }
  return response;
}

async function keep(request, response, person, until) {
  const cache = await caches.open(PAGES);
  const owner = await cache.match(PERSON);
  if (owner && (await owner.text()) !== person) {
    await caches.delete(PAGES);  // another person's copies never meet this one's
    return keep(request, response, person, until);
  }
  const headers = new Headers(response.headers);
  headers.set("X-Kept-At", new Date().toISOString());
  const body = await response.arrayBuffer();
  // The session's end as the newest page says it: a session goes on while it is used.
  await cache.put(PERSON, new Response(person, { headers: { [UNTIL]: until } }));
  await cache.put(request.url, new Response(body, { status: 200, headers: headers }));
}

// The copies are readable only while their person's session lives: once it has ended (its
// person never logged out, the session ran out), they are deleted, never shown. The time is
// this device's clock against the server's; an owner kept without an end is ended too.
async function forgetIfEnded() {
  const cache = await caches.open(PAGES);
  const owner = await cache.match(PERSON);
  if (!owner) return cache;
  const until = Number(owner.headers.get(UNTIL));
  if (until && until * 1000 > Date.now()) return cache;
  await caches.delete(PAGES);
  return caches.open(PAGES);
}

async function offlineCopy(request) {
  const cache = await forgetIfEnded();
  const kept = await cache.match(request.url);
  if (!kept) return offlinePage(cache);
  const html = await kept.text();
  const asOf = kept.headers.get("X-Kept-At");
  const marked = html.replace("<html", '<html data-offline-as-of="' + asOf + '"');
  return new Response(marked, { status: 200, headers: kept.headers });
}

// Offline, with no copy of the page asked for: the pages there are copies of, by their titles.
async function offlinePage(cache) {
  const links = [];
  for (const key of await cache.keys()) {
    const url = new URL(key.url);
    if (url.pathname === PERSON) continue;
    const html = await (await cache.match(key)).text();
    const title = (/<title>([^<]*)<\/title>/.exec(html) || [null, url.pathname])[1];
    links.push('<li><a href="' + url.pathname + url.search + '">' + title.trim() + "</a></li>");
  }
  if (!links.length) return plainPage(CONFIG.nothingKeptText);
  return plainPage(CONFIG.offlineText + "</p><ul>" + links.join("") + "</ul><p>");
}

// A form posted as a page (not by htmx) while the network is down: say so, in words.
async function notSentWhenOffline(request) {
  try {
    return await fetch(request);
  } catch (error) {
    return plainPage(CONFIG.notSentText);
  }
}

function plainPage(text) {
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>" + CONFIG.offlineTitle + "</title></head><body><main><h1>" + CONFIG.offlineTitle +
    "</h1><p>" + text + "</p></main></body></html>";
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'none'",
    },
  });
}

// The files pages use: this version's copy first (they change only with a deploy, which
// brings a new worker); one not kept yet is fetched and kept.
async function staticFile(request) {
  const cache = await caches.open(FILES);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
