{% load static %}// 上饶麻将's service worker: static files (hashed names, so never stale) from the cache
// first; pages from the network, and the offline page when it is gone. The live table needs
// the network anyway: nothing else is kept.
"use strict";
const CACHE = "mj-{{ precache|join:'|'|slugify }}-{% static 'css/site.css' %}";
const OFFLINE = "{% url 'offline' %}";
const PRECACHE = [OFFLINE{% for path in precache %}, "{% static path %}"{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("{% get_static_prefix %}")) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then((hit) => hit || fetch(request).then((response) => {
          if (response.ok) cache.put(request, response.clone());
          return response;
        }))
      )
    );
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
