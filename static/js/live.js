// htmx's ws extension retries with full jitter up to a minute; at a table a dropped phone
// should be back within seconds, so cap the wait at 8 s (still jittered, so a restarted
// server is not hit by every browser at once).
htmx.config.wsReconnectDelay = function (retryCount) {
  var cap = Math.min(8000, 500 * Math.pow(2, retryCount));
  return Math.random() * cap;
};

// The words this script shows, in the page's language: data-* of its tag (templates/base.html).
var liveWords = document.currentScript.dataset;

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
      : liveWords.failed.replace("%(status)s", xhr.status)
  );
});

document.addEventListener("htmx:sendError", function (event) {
  if (event.detail.xhr && event.detail.xhr.unanswered) {
    showNotice(liveWords.dropped);
    return;
  }
  showNotice(liveWords.unsent);
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

// htmx tries again only after an abnormal close; a socket the server let go on purpose (a
// log-out, a campaign deleted: 1000; one page past the person's limit, TOO_MANY in
// rolls/table/campaign_socket.py: 4008) closes cleanly, its words already in #notice. Keep such
// codes out of this list: 1008 was in effect in it, sent as 1011, and the page came back
// every few seconds to be turned away again.
var RETRIED = [1006, 1011, 1012, 1013];
document.addEventListener("htmx:wsClose", function (event) {
  var retried = RETRIED.indexOf(event.detail.event.code) >= 0;
  socketDown = true;
  clearTimeout(downTimer);
  downTimer = setTimeout(function () {
    if (socketDown) showConnection(retried ? liveWords.reconnecting : liveWords.disconnected);
  }, 1000);
});

document.addEventListener("htmx:wsOpen", function (event) {
  if (!socketDown) return;
  if (!document.getElementById("connection").hidden) showConnection(liveWords.catchingUp);
  if (event.target.hasAttribute("data-catch-up")) {
    event.detail.socketWrapper.send('{"catch_up": true}', event.target);
  }
});

document.addEventListener("htmx:wsAfterMessage", function () {
  if (!socketDown) return;
  socketDown = false;
  clearTimeout(downTimer);
  if (document.getElementById("connection").hidden) return;
  showConnection(liveWords.upToDate);
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
        button.firstChild.textContent = liveWords.copied;
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
// asks its socket for what it lacks; the state it gets carries its own number.
// What the page shows, for its socket: the last number it saw, and the first and last entries
// of its log. On every (re)connect and catch-up the socket sends only what is past them.
function seenByPage() {
  var mark = document.getElementById("table-seq");
  var mine = document.getElementById("my-seq");
  var entries = document.querySelectorAll("#roll-log > li[id^='roll-']");
  var id = function (entry) { return entry ? entry.id.slice(5) : "0"; };
  var seen = {
    since: mark && mark.dataset.seq ? mark.dataset.seq : null,
    first: id(entries[0]),
    last: id(entries[entries.length - 1]),
  };
  // The person's own number: the whispers to them (rolls/talk/services.py), counted apart.
  if (mine && mine.dataset.seq) seen.mine = mine.dataset.seq;
  return seen;
}

var openSocket = htmx.createWebSocket;
htmx.createWebSocket = function (url) {
  var seen = seenByPage();
  if (seen.since !== null && /\/ws\/campaigns\/\d+\/$/.test(url)) {
    url += "?" + new URLSearchParams(seen).toString();
  }
  return openSocket(url);
};

function catchUp(socketWrapper, target) {
  var asked = seenByPage();
  asked.catch_up = true;
  socketWrapper.send(JSON.stringify(asked), target);
}

// The table's number, and the person's own (their whispers), each checked for a gap alike.
var lastSeqs = { "table-seq": null, "my-seq": null };
var SEQ = /id="(table-seq|my-seq)" data-seq="(\d+)"( data-state)?/g;
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  if (!event.target.hasAttribute || !event.target.hasAttribute("data-table-seq")) return;
  var message = event.detail.message;
  if (typeof message !== "string") return;
  var found;
  SEQ.lastIndex = 0;
  while ((found = SEQ.exec(message))) {
    var name = found[1];
    var seq = Number(found[2]);
    var last = lastSeqs[name];
    if (found[3] || last === null) {
      lastSeqs[name] = seq;
    } else if (seq > last + 1) {
      // This message is left out: the answer, asked with what the page saw before it, holds it.
      event.preventDefault();
      catchUp(event.detail.socketWrapper, event.target);
      return;
    } else if (seq > last) {
      lastSeqs[name] = seq;
    }
  }
});

// Commands over the page's socket. While the table page's socket (or an open sheet's) is open,
// a command from the page (an htmx POST) goes over it instead of a new HTTP request: the same
// path, body and key. A socket that takes them is marked data-commands.
// The server runs the same view (fudgetable/socket_commands.py), and its answer is handed to
// htmx as if it had come over HTTP, so every form's target, swap and refusal work as before.
// A command still unanswered when the socket drops, or after ANSWER_WAIT, is sent over HTTP
// if it carries an idempotency key (it then lands once whichever copy arrives); one without a
// key (a countdown's mark) might land twice that way, so the page says it may not have landed
// instead, and the table the socket sends on reconnecting shows whether it did.
var ANSWER_WAIT = 10000;
var commandSocket = null;
var commandCount = 0;
var awaiting = {};

function unanswered(id) {
  var sent = awaiting[id];
  if (!sent) return;
  delete awaiting[id];
  clearTimeout(sent.timer);
  if (/(^|&)key=/.test(sent.body)) {
    XMLHttpRequest.prototype.send.call(sent.xhr, sent.body);
  } else {
    sent.xhr.unanswered = true;
    sent.xhr.onerror();
  }
}

document.addEventListener("htmx:wsOpen", function (event) {
  if (event.target.hasAttribute("data-commands")) commandSocket = event.detail.socketWrapper;
});
document.addEventListener("htmx:wsClose", function (event) {
  if (!event.target.hasAttribute("data-commands")) return;
  commandSocket = null;
  Object.keys(awaiting).forEach(unanswered);
});

document.addEventListener("htmx:beforeSend", function (event) {
  var detail = event.detail;
  // Offline, the HTTP request fails at once and the page says so; the socket may not know yet.
  if (!commandSocket || !navigator.onLine || detail.requestConfig.verb !== "post") return;
  var xhr = detail.xhr;
  var path = detail.pathInfo.finalRequestPath;
  var headers = detail.requestConfig.headers;
  xhr.send = function (body) {
    // A file, or more than the socket takes (fudgetable/socket_commands.py), goes over HTTP.
    if (typeof body !== "string" || body.length > 60000 || !commandSocket) {
      XMLHttpRequest.prototype.send.call(xhr, body);
      return;
    }
    var id = ++commandCount;
    awaiting[id] = { xhr: xhr, body: body, timer: setTimeout(unanswered, ANSWER_WAIT, id) };
    var command = { id: id, path: path, body: body, headers: headers };
    commandSocket.send(JSON.stringify({ command: command }));
  };
});

// An answer is a JSON frame; the table's pushes are HTML. It is given to the waiting request.
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  var message = event.detail.message;
  if (typeof message !== "string" || message.charAt(0) !== "{") return;
  event.preventDefault();
  var answer;
  try { answer = JSON.parse(message); } catch (error) { return; }
  var sent = awaiting[answer.answer];
  if (!sent) return;  // answered over HTTP already
  delete awaiting[answer.answer];
  clearTimeout(sent.timer);
  var xhr = sent.xhr;
  var headers = {};
  Object.keys(answer.headers).forEach(function (name) {
    headers[name.toLowerCase()] = answer.headers[name];
  });
  var fields = { readyState: 4, status: answer.status, statusText: "", responseURL: "",
                 responseText: answer.body, response: answer.body };
  Object.keys(fields).forEach(function (name) {
    Object.defineProperty(xhr, name, { value: fields[name], configurable: true });
  });
  xhr.getResponseHeader = function (name) {
    var value = headers[name.toLowerCase()];
    return value === undefined ? null : value;
  };
  xhr.getAllResponseHeaders = function () {
    return Object.keys(headers).map(function (name) { return name + ": " + headers[name]; })
      .join("\r\n");
  };
  xhr.onload();
});

// A server too busy for a command answers 503 with Retry-After; nothing of it was saved. The
// page says so, waits as long as it was told and sends it again, with the same key (the form
// keeps it until a command lands), a few times before leaving it to the person.
var BUSY_TRIES = 3;
document.addEventListener("htmx:beforeOnLoad", function (event) {
  var xhr = event.detail.xhr;
  var elt = event.detail.elt;
  var wait = Number(xhr.getResponseHeader("Retry-After"));
  if (xhr.status !== 503 || !wait || event.detail.requestConfig.verb !== "post") return;
  var tries = Number(elt.dataset.busyTries || 0) + 1;
  if (tries > BUSY_TRIES || !elt.isConnected) {
    delete elt.dataset.busyTries;
    return;  // htmx shows the server's words (htmx:responseError above)
  }
  event.preventDefault();
  elt.dataset.busyTries = tries;
  showNotice(liveWords.busy.replace("%(seconds)s", wait));
  setTimeout(function () {
    htmx.ajax("POST", event.detail.requestConfig.path, {
      source: elt, target: event.detail.target,
    });
  }, wait * 1000);
});
document.addEventListener("htmx:afterRequest", function (event) {
  if (event.detail.successful) delete event.detail.elt.dataset.busyTries;
});

// What a GM did to this person's character (characters/sheet_news.py) stays until its OK is
// tapped; the newest three are kept.
document.addEventListener("click", function (event) {
  var ok = event.target.closest && event.target.closest("[data-dismiss]");
  if (ok) ok.closest(".message").remove();
});
document.addEventListener("htmx:wsAfterMessage", function () {
  var news = document.querySelectorAll("#sheet-news > .message");
  for (var i = 3; i < news.length; i++) news[i].remove();
});
