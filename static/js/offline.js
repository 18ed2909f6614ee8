// Offline: the service worker that keeps the person's last copy of their pages
// (fudgetable/service_worker.js), and what a page does while the network is gone. A page read
// from that copy says so at the top ("Offline: as of …") and its commands are off, so nothing
// is tapped into the void. A page whose network drops says it is offline too; its taps fail
// as before and live.js says they were not sent. Either way what the person types stays in
// its field and is kept on the device (sessionStorage) until it is back in the page the
// network brings, which says so. Back online, a copy reloads itself to catch up; a live page's
// sockets catch it up themselves (live.js).
(function () {
  var script = document.currentScript;
  var words = script.dataset;
  var DRAFTS = "offline-drafts:" + location.pathname;

  if ("serviceWorker" in navigator && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker).catch(function () {});
  }

  var asOf = document.documentElement.dataset.offlineAsOf;
  var offline = false;

  function bar(text, detail) {
    var shown = document.getElementById("offline-bar");
    if (!text) {
      if (shown) shown.remove();
      return;
    }
    if (!shown) {
      shown = document.createElement("div");
      shown.id = "offline-bar";
      shown.className = "offline-bar";
      shown.setAttribute("role", "status");
      var main = document.getElementById("main");
      main.insertBefore(shown, main.firstChild);
    }
    shown.innerHTML = "";
    [text, detail].forEach(function (line, index) {
      if (!line) return;
      var p = document.createElement("p");
      p.textContent = line;
      if (index) p.className = "meta";
      shown.appendChild(p);
    });
  }

  // A command is a form that posts (htmx or not): its buttons and the choices that send it.
  function commands() {
    return document.querySelectorAll(
      "form[method=post] button, form[method=post] select, form[method=post] input[type=submit]," +
        " [hx-post]:not(form)"
    );
  }

  function commandsOff() {
    commands().forEach(function (control) {
      if (control.disabled) return;
      control.disabled = true;
      control.setAttribute("data-offline-off", "");
    });
  }

  function goOffline() {
    offline = true;
    if (!asOf) {
      bar(words.offline, words.typing);
      return;
    }
    var when = new Date(asOf).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    bar(words.asOf.replace("%(time)s", when), words.copy);
    commandsOff();
  }

  // What is typed while offline is kept, with the rest of its form (its version and key too:
  // a form typed on an old page stays an edit of that page, and a stale one is refused).
  function keepDraft(event) {
    var form = event.target.form;
    if (!offline || !form || (form.method || "").toLowerCase() !== "post") return;
    var drafts = JSON.parse(sessionStorage.getItem(DRAFTS) || "{}");
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") fields[name] = value;
    });
    drafts[form.getAttribute("action") || ""] = fields;
    sessionStorage.setItem(DRAFTS, JSON.stringify(drafts));
  }

  function restoreDrafts() {
    var drafts = JSON.parse(sessionStorage.getItem(DRAFTS) || "null");
    if (!drafts) return;
    var restored = false;
    document.querySelectorAll("form[method=post]").forEach(function (form) {
      var fields = drafts[form.getAttribute("action") || ""];
      if (!fields) return;
      Object.keys(fields).forEach(function (name) {
        var field = form.elements.namedItem(name);
        if (!field || !("value" in field) || field.type === "checkbox" || field.type === "radio") {
          return;
        }
        if (field.value !== fields[name] && field.type !== "hidden") {
          restored = true;
          // Where it is folded away, the fold opens: the person sees what came back.
          var fold = field.closest("details");
          for (; fold; fold = fold.parentElement.closest("details")) fold.open = true;
        }
        field.value = fields[name];
      });
    });
    if (!asOf) sessionStorage.removeItem(DRAFTS);
    if (restored && !asOf) {
      var notice = document.getElementById("notice");
      notice.querySelector("p").textContent = words.restored;
      notice.hidden = false;
    }
  }

  // A copy back online reloads from the network, its drafts kept for the page it brings. It
  // first asks for its page itself, and again a little later until the server answers: the
  // "online" event can come before the worker's own fetch works again (which would bring the
  // copy back), and none comes at all when the server, not the network, was away.
  var asking = false;
  function backOnline(first) {
    if (!asOf) {
      offline = false;
      bar("");
      return;
    }
    if (asking) return;
    asking = true;
    var wait = 1000;
    function ask() {
      fetch(location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          location.reload();
        })
        .catch(function () {
          setTimeout(ask, wait);
          wait = Math.min(wait * 2, 30000);
        });
    }
    setTimeout(ask, first);
  }

  document.addEventListener("input", keepDraft, true);
  document.addEventListener("change", keepDraft, true);
  // A form posted as a page while offline would leave it for the browser's error page: it is
  // stopped, in words, with what was typed still in it. (An htmx request fails and live.js
  // says so; on a copy, whose commands are off, nothing is sent at all.)
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!offline || (form.method || "").toLowerCase() !== "post") return;
    if (!asOf && form.hasAttribute("hx-post")) return;
    event.preventDefault();
    event.stopPropagation();
    bar(words.offline, words.notSent);
  }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (asOf && event.detail.requestConfig.verb !== "get") event.preventDefault();
  });
  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () { backOnline(0); });
  // A copy's socket opening means the network is back, even if no "online" event came.
  document.addEventListener("htmx:wsOpen", function () { if (asOf) backOnline(0); });

  // At log-out the worker forgets this person's copies (it sees the log-out too).
  document.addEventListener("submit", function (event) {
    var action = event.target.getAttribute("action");
    if (action === words.logout && navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage("forget");
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    restoreDrafts();
    if (asOf || !navigator.onLine) goOffline();
    // A copy that came while the browser says it is online: the server was away a moment ago,
    // so it is not asked again at once (nor, were its fetch to keep failing, reloaded in a loop).
    if (asOf && navigator.onLine) backOnline(2000);
  });
})();
