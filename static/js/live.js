// htmx's ws extension retries with full jitter up to a minute; at a table a dropped phone
// should be back within seconds, so cap the wait at 8 s (still jittered, so a restarted
// server is not hit by every browser at once).
htmx.config.wsReconnectDelay = function (retryCount) {
  var cap = Math.min(8000, 500 * Math.pow(2, retryCount));
  return Math.random() * cap;
};

// htmx leaves the page as it was when a request fails; say so, in words a player can act on.
// A plain-text answer (a refused spotlight move, a busy server) is the server's own words.
function showNotice(text) {
  var notice = document.getElementById("notice");
  if (!notice) return;
  notice.querySelector("p").textContent = text;
  notice.hidden = false;
}

document.addEventListener("htmx:responseError", function (event) {
  var xhr = event.detail.xhr;
  var plain = (xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0;
  showNotice(
    plain && xhr.responseText
      ? xhr.responseText
      : "That did not work (the server answered " + xhr.status + "). Nothing was changed; " +
          "reload the page and try again."
  );
});

document.addEventListener("htmx:sendError", function () {
  showNotice(
    "That was not sent: the connection seems to be down. Nothing was changed; try again " +
      "when you are back online."
  );
});

// The notice stays until the next change the person sends goes through (not a background GET).
document.addEventListener("htmx:afterRequest", function (event) {
  var notice = document.getElementById("notice");
  var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
  if (notice && event.detail.successful && verb && verb !== "get") notice.hidden = true;
});

// A sheet's live parts reach its own page over the socket too, and may replace the form a tap
// came from before the tap's answer arrives. htmx would then look for the answer's parts in
// the detached form, find none, and drop them; put them in the page instead.
document.addEventListener("htmx:beforeSwap", function (event) {
  var source = event.detail.requestConfig && event.detail.requestConfig.elt;
  var reswap = event.detail.xhr.getResponseHeader("HX-Reswap");
  if (source && !source.isConnected && reswap === "none" && event.detail.shouldSwap) {
    event.detail.shouldSwap = false;
    htmx.swap(document.body, event.detail.serverResponse, { swapStyle: "none" });
  }
});

// A page whose socket was down may have missed pushes: the table's socket sends the whole
// table on every connect; a sheet's (data-catch-up) asks for its live parts. A bar says the
// socket is down (after a second, so a page being left or a quick blip shows nothing) and
// that the page has caught up.
var socketDown = false;
var downTimer = null;

function showConnection(text) {
  var bar = document.getElementById("connection");
  if (!bar) return;
  bar.querySelector("p").textContent = text;
  bar.hidden = !text;
}

document.addEventListener("htmx:wsClose", function () {
  socketDown = true;
  clearTimeout(downTimer);
  downTimer = setTimeout(function () {
    if (socketDown) showConnection("Connection lost: reconnecting…");
  }, 1000);
});

document.addEventListener("htmx:wsOpen", function (event) {
  if (!socketDown) return;
  if (!document.getElementById("connection").hidden) showConnection("Reconnected: catching up…");
  if (event.target.hasAttribute("data-catch-up")) {
    event.detail.socketWrapper.send('{"catch_up": true}', event.target);
  }
});

document.addEventListener("htmx:wsAfterMessage", function () {
  if (!socketDown) return;
  socketDown = false;
  clearTimeout(downTimer);
  if (document.getElementById("connection").hidden) return;
  showConnection("Up to date.");
  downTimer = setTimeout(function () { showConnection(""); }, 2000);
});

// An invite link's Copy and Share buttons, shown only where they work.
function inviteButtons() {
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    if (!navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var link = document.getElementById(button.dataset.copy).value;
      navigator.clipboard.writeText(link).then(function () {
        button.firstChild.textContent = "Copied";
      });
    });
  });
  document.querySelectorAll("[data-share]").forEach(function (button) {
    if (!navigator.share) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var link = document.getElementById(button.dataset.share).value;
      navigator.share({ title: button.dataset.shareTitle, url: link }).catch(function () {});
    });
  });
}
document.addEventListener("DOMContentLoaded", inviteButtons);

// Folds. A sheet's sections start folded so a phone sees its vitals and traits first; a wide
// screen has the room, so they open there. A fold open before a swap (a tap's answer, a push)
// is open after it, so adding a second gift does not mean opening the list again.
function openSectionsOnWideScreens() {
  if (!window.matchMedia("(min-width: 56rem)").matches) return;
  document.querySelectorAll("details.section-fold").forEach(function (fold) { fold.open = true; });
}
document.addEventListener("DOMContentLoaded", openSectionsOnWideScreens);

var openFolds = [];
function rememberFolds() {
  openFolds = Array.prototype.map.call(document.querySelectorAll("details[id][open]"), function (d) {
    return d.id;
  });
}
function restoreFolds() {
  openFolds.forEach(function (id) {
    var fold = document.getElementById(id);
    if (fold && fold.tagName === "DETAILS") fold.open = true;
  });
}
document.addEventListener("htmx:beforeSwap", rememberFolds);
document.addEventListener("htmx:wsBeforeMessage", rememberFolds);
document.addEventListener("htmx:afterSettle", restoreFolds);
document.addEventListener("htmx:wsAfterMessage", restoreFolds);

// A link to a folded section opens it.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest(".sheet-nav a");
  if (!link) return;
  var fold = document.querySelector(link.hash + " > details");
  if (fold) fold.open = true;
});

// Only one small fold (a row's "More", a roll's lines) is open at a time, and a tap elsewhere
// closes it, as a menu does.
document.addEventListener("toggle", function (event) {
  var fold = event.target;
  if (!fold.classList || !fold.classList.contains("fold-menu") || !fold.open) return;
  document.querySelectorAll("details.fold-menu[open]").forEach(function (other) {
    if (other !== fold) other.open = false;
  });
}, true);
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("details.fold-menu")) return;
  document.querySelectorAll("details.fold-menu[open]").forEach(function (fold) { fold.open = false; });
});

// A command on its way says so to a screen reader too, until its answer (or its failure) lands.
document.addEventListener("htmx:beforeRequest", function (event) {
  if (event.detail.requestConfig.verb !== "get") event.detail.elt.setAttribute("aria-busy", "true");
});
document.addEventListener("htmx:afterRequest", function (event) {
  event.detail.elt.removeAttribute("aria-busy");
});

// No silent gaps: every table event carries the table's number (#table-seq). A number skipped
// means a message was dropped on its way here (a full queue, a restarted process), so the page
// asks its socket for the table as it stands; the state it gets carries its own number.
var lastSeq = null;
var SEQ = /id="table-seq" data-seq="(\d+)"( data-state)?/;
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  if (!event.target.hasAttribute || !event.target.hasAttribute("data-table-seq")) return;
  var found = SEQ.exec(event.detail.message);
  if (!found) return;
  var seq = Number(found[1]);
  if (found[2] || lastSeq === null) {
    lastSeq = seq;
  } else if (seq > lastSeq + 1) {
    lastSeq = seq;
    event.detail.socketWrapper.send('{"catch_up": true}', event.target);
  } else if (seq > lastSeq) {
    lastSeq = seq;
  }
});
