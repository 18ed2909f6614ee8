// The table page on one screen (static/css/table.css, docs/architecture.md "The table page").
// The tools are tabs; on a phone a tab bar switches views of the screen's height; each
// person's choice is kept in this browser. A push that lands in a tab or view not shown badges
// it. The log keeps its newest entry in sight while its reader is at the bottom, and offers
// the latest ones when they have scrolled up. Without this file the page is one long page.
(function () {
  "use strict";
  var page = document.getElementById("table-page");
  if (!page) return;
  var wide = window.matchMedia("(min-width: 64rem)");
  var panes = page.querySelector(".panes");
  var scroller = page.querySelector(".log-scroller");
  var latest = page.querySelector(".log-latest");
  var remembered = "fudgetable:" + page.dataset.remember + ":";

  function recall(name) {
    try { return window.localStorage.getItem(remembered + name); } catch (error) { return null; }
  }
  function remember(name, value) {
    try { window.localStorage.setItem(remembered + name, value); } catch (error) { /* private */ }
  }

  // --- Badges: how many things arrived in a tab or view while it was not shown.
  function badge(tab, count) {
    var mark = tab && tab.querySelector(".tab-badge");
    if (!mark) return;
    var now = count === 0 ? 0 : Number(mark.dataset.count || 0) + (count || 1);
    mark.dataset.count = now;
    mark.textContent = now > 9 ? "9+" : String(now);
    mark.hidden = now === 0;
  }

  // --- The phone's views.
  var viewTabs = Array.prototype.slice.call(page.querySelectorAll("[data-view-tab]"));
  var views = viewTabs.map(function (tab) { return tab.dataset.viewTab; });
  var scrolled = {};

  function viewTab(name) {
    return viewTabs.filter(function (tab) { return tab.dataset.viewTab === name; })[0];
  }

  // ``passing``: a view the page turns to by itself (a fight), not the person's choice to keep.
  function showView(name, passing) {
    if (views.indexOf(name) < 0) name = views[0];
    if (page.dataset.viewNow) scrolled[page.dataset.viewNow] = panes.scrollTop;
    page.dataset.viewNow = name;
    viewTabs.forEach(function (tab) {
      var shown = tab.dataset.viewTab === name;
      tab.setAttribute("aria-current", shown ? "true" : "false");
      if (shown) badge(tab, 0);
    });
    if (!passing) remember("view", name);
    panes.scrollTop = scrolled[name] || 0;
    if (name === "log") keepLatestInSight();
  }

  viewTabs.forEach(function (tab) {
    tab.addEventListener("click", function (event) {
      event.preventDefault();
      showView(tab.dataset.viewTab);
    });
  });

  // --- The tools' tabs: a tab list (arrow keys move along it), one panel shown at a time.
  var toolNav = page.querySelector(".tool-tabs");
  var toolTabs = Array.prototype.slice.call(page.querySelectorAll("[data-tool-tab]"));

  function toolTab(key) {
    return toolTabs.filter(function (tab) { return tab.dataset.toolTab === key; })[0];
  }

  function showTool(key) {
    if (!toolTab(key)) key = toolTabs.length ? toolTabs[0].dataset.toolTab : "";
    toolTabs.forEach(function (tab) {
      var shown = tab.dataset.toolTab === key;
      tab.setAttribute("aria-selected", shown ? "true" : "false");
      tab.tabIndex = shown ? 0 : -1;
      document.getElementById("tool-" + tab.dataset.toolTab).classList.toggle("current", shown);
      if (shown) badge(tab, 0);
    });
    remember("tool", key);
  }

  if (toolNav) {
    toolNav.setAttribute("role", "tablist");
    toolTabs.forEach(function (tab) {
      var panel = document.getElementById("tool-" + tab.dataset.toolTab);
      tab.setAttribute("role", "tab");
      tab.setAttribute("aria-controls", panel.id);
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", tab.id);
      tab.addEventListener("click", function (event) {
        event.preventDefault();
        showTool(tab.dataset.toolTab);
      });
    });
    toolNav.addEventListener("keydown", function (event) {
      var at = toolTabs.indexOf(document.activeElement);
      if (at < 0) return;
      var to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: toolTabs.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      var tab = toolTabs[(to + toolTabs.length) % toolTabs.length];
      showTool(tab.dataset.toolTab);
      tab.focus();
    });
  }

  // --- The log: newest at the bottom, kept in sight while its reader is there.
  var atBottom = true;
  var unseen = 0;

  function nearBottom() {
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
  }
  function keepLatestInSight() {
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
  }
  function showLatest(count) {
    unseen += count;
    latest.querySelector(".log-latest-count").textContent = "(" + unseen + ")";
    latest.hidden = false;
  }
  function seenLatest() {
    unseen = 0;
    latest.hidden = true;
  }

  scroller.addEventListener("scroll", function () {
    if (!scroller.clientHeight) return;  // not shown (another view): says nothing
    atBottom = nearBottom();
    if (atBottom) seenLatest();
  });
  latest.addEventListener("click", function () {
    atBottom = true;
    scroller.scrollTo({ top: scroller.scrollHeight, behavior: "smooth" });
    seenLatest();
  });

  // Earlier entries go in above what the reader is looking at, which stays where it was.
  var anchor = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var earlier = event.detail.target;
    if (!earlier.classList || !earlier.classList.contains("log-earlier")) return;
    var next = earlier.nextElementSibling;
    anchor = next && { entry: next, top: next.getBoundingClientRect().top };
  });
  // On the swap itself, in the task that inserts them: htmx settles 20 ms later, and in
  // between the reader (and a test) would see the entry pushed down by their height.
  document.addEventListener("htmx:afterSwap", function () {
    if (!anchor) return;
    scroller.scrollTop += anchor.entry.getBoundingClientRect().top - anchor.top;
    anchor = null;
  });

  // --- What a push brings: the log's new entries, and badges where it lands out of sight.
  var pushing = false;
  page.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    // A table state (on a reconnect) redraws what is already shown: it badges nothing but
    // the entries it adds.
    pushing = typeof message === "string" && message.charAt(0) !== "{" &&
      message.indexOf(" data-state") < 0;
  });
  page.addEventListener("htmx:wsAfterMessage", function () {
    pushing = false;
    keepLatestInSight();
    turnToTheFight();
  });

  // --- A fight: while a round runs in the scene, a player's phone opens on the scene, and
  // turns to it once when a round starts (not on every push of the fight; a GM's never).
  var gmHere = !!page.querySelector(".part-scene[data-gm]");
  function roundRunning() {
    var round = document.getElementById("scene-round");
    return !!round && Number(round.dataset.round || 0) > 0;
  }
  var fighting = roundRunning();
  function turnToTheFight() {
    var now = roundRunning();
    if (now && !fighting && !gmHere && !wide.matches) showView("scene", true);
    fighting = now;
  }

  var QUIET = { "table-seq": true, "my-seq": true, "roll-news": true, "presence": true };
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    // A fight picker drawn again (a sheet changed) is no news to badge.
    if (QUIET[target.id] || target.hasAttribute("data-keeps-choice")) return;
    if (!page.contains(target)) return;
    // Entries added at the bottom come as list items; the log redrawn whole, as the list.
    var fragment = event.detail.fragment;
    var first = fragment.firstElementChild;
    var added = target.id === "roll-log" && first && first.tagName === "LI"
      ? fragment.querySelectorAll(":scope > li.roll-entry").length : 0;
    if (target.id === "roll-log" ? !added : !pushing) return;
    if (added && scroller.clientHeight && !nearBottom()) showLatest(added);
    var part = target.closest("[data-view]");
    if (!part) return;
    var count = added || 1;
    var tool = part.classList.contains("tool") ? part.dataset.tool : null;
    if (wide.matches) {
      if (tool && !part.classList.contains("current")) badge(toolTab(tool), count);
      return;
    }
    var inViews = part.dataset.view.split(" ");
    if (inViews.indexOf(page.dataset.viewNow) < 0) badge(viewTab(inViews[0]), count);
    else if (tool && inViews[0] === "tools" && !part.classList.contains("current")) {
      badge(toolTab(tool), count);
    }
  });

  // --- A fight picker pushed while the GM is choosing (a sheet's weapons or traits changed)
  // keeps what was picked, if it still offers it: a push never undoes a choice.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fresh = event.detail.fragment.firstElementChild;
    if (!target.hasAttribute("data-keeps-choice") || !fresh || !fresh.options) return;
    var picked = target.value;
    Array.prototype.forEach.call(fresh.options, function (option) {
      option.toggleAttribute("selected", option.value === picked);
    });
  });

  // --- Keys: R goes to the rolls, L to the log (not while typing in a field).
  function goToRolls() {
    var rolls = document.getElementById("tool-roll");
    if (!rolls) return;
    if (!wide.matches) showView(rolls.dataset.view);
    if (toolTab("roll")) showTool("roll");
    var first = rolls.querySelector(".quick-roll, select, button");
    if (first) first.focus();
  }
  function goToLog() {
    if (!wide.matches) showView("log");
    scroller.focus();
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, dialog")) return;
    var key = event.key.toLowerCase();
    if (key === "r") goToRolls();
    else if (key === "l") goToLog();
    else return;
    event.preventDefault();
  });

  if (fighting && !gmHere) showView("scene", true);
  else showView(recall("view"));
  showTool(recall("tool"));
  scroller.scrollTop = scroller.scrollHeight;
})();
