// The scene at the table (templates/rolls/scene/scene.html). A figure this person may move (a GM any,
// a player their own) is picked with a tap and sent with a tap on an area's "Move here" (Enter
// and Tab do the same from the keyboard), or dragged onto an area on a desktop; either way
// the page's #figure-move form is filled in and sent, as it is sent by hand without this file.
// Cards pinned to an area get a link in that area's box. A handout shown to the table opens
// full screen once per showing. "Point at…" makes the next tap on an area, a figure or a card a
// ping (rolls/scene/pings.py); a ping pushed to this screen flashes its part, and the GM's
// "Everyone looks" turns a phone to the scene. A figure picked that this person may attack with
// offers "Attack…": its form (rolls/fight/attack_views.py) comes into #scene-attack, and the next
// tap on another figure names the target and sends it.
(function () {
  "use strict";
  var part = document.querySelector(".part-scene");
  if (!part) return;
  var me = part.dataset.me;
  var gm = part.hasAttribute("data-gm");
  var picked = null;  // the id of the figure picked for a move
  var pointing = false;  // the next tap on a part pings it
  var looking = false;  // a GM's pings ask every screen to look
  var attackUrl = part.dataset.attackUrl;  // none: this table fights no exchanges, or an observer

  function movable(figure) {
    return gm || (figure.dataset.owner && figure.dataset.owner === me);
  }

  function areaOf(figure) {
    var area = figure.closest("[data-area]");
    return area ? area.dataset.area || "0" : "0";
  }

  function attackForm() {
    var form = document.getElementById("attack-form");
    return form && part.contains(form) ? form : null;
  }

  function aiming() {
    var form = attackForm();
    return form && !form.querySelector("[name=target]").value ? form : null;
  }

  function prepare() {
    var any = false;
    var aimed = aiming();
    var attacker = aimed ? aimed.dataset.attacker : null;
    var round = document.getElementById("scene-round");
    var fighting = !!round && (round.dataset.round || "0") !== "0";
    preparePing();
    part.classList.toggle("aiming", !!aimed);
    document.querySelectorAll("#scene-board .figure").forEach(function (figure) {
      var button = figure.querySelector(".figure-button");
      var mine = movable(figure);
      any = any || mine;
      figure.classList.toggle("mine", !gm && mine);
      // While pointing, or aiming an attack, any figure may be tapped.
      button.disabled = !mine && !pointing && !aimed;
      button.draggable = mine && !aimed;
      var chosen = figure.dataset.figure === (attacker || picked);
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
      var attack = figure.querySelector("[data-attack]");
      // In a round every fighter's Attack… is at hand: two taps from the board to a roll.
      var offered = fighting || figure.dataset.figure === picked;
      if (attack) attack.hidden = !(attackUrl && mine && !aimed && offered);
    });
    var form = document.getElementById("figure-move");
    if (form && !gm) {
      form.querySelectorAll("select[name=figure] option").forEach(function (option) {
        if (option.dataset.owner !== me) option.remove();
      });
      if (!form.querySelector("select[name=figure] option")) form.hidden = true;
    }
    var hint = document.querySelector("[data-move-hint]");
    if (hint) hint.hidden = !any;
    showTargets();
    placePins();
  }

  function showTargets() {
    var figure = picked && document.getElementById("figure-" + picked);
    if (picked && !figure) picked = null;
    var from = figure ? areaOf(figure) : null;
    document.querySelectorAll("#scene-board [data-move-here]").forEach(function (button) {
      button.hidden = !figure || button.closest("[data-area]").dataset.area === from;
    });
  }

  function pick(id) {
    picked = picked === id ? null : id;
    prepare();
  }

  function move(figureId, areaId) {
    var form = document.getElementById("figure-move");
    var figure = document.getElementById("figure-" + figureId);
    if (!form || !figure) return;
    var from = areaOf(figure);
    picked = null;
    if (from === areaId) { prepare(); return; }
    form.querySelector("[name=seen_in]").value = from;
    var who = form.querySelector("select[name=figure]");
    if (!who.querySelector("option[value='" + figureId + "']")) {
      who.appendChild(new Option(figure.querySelector(".figure-name").textContent, figureId));
    }
    who.value = figureId;
    form.querySelector("select[name=area]").value = areaId;
    prepare();
    form.requestSubmit();
    form.querySelector("[name=seen_in]").value = "";
  }

  // --- An attack: the form for the figure picked, then a tap on the target's figure.
  function openAttack(figureId) {
    picked = null;
    pointing = false;
    var url = attackUrl + "?attacker=" + encodeURIComponent(figureId);
    window.htmx.ajax("GET", url, { target: "#scene-attack", swap: "innerHTML" }).then(function () {
      var form = attackForm();
      if (form) form.scrollIntoView({ block: "nearest" });
      prepare();
    });
  }

  function aimAt(figureId) {
    var form = aiming();
    if (!form || figureId === form.dataset.attacker) return;
    form.querySelector("[name=target]").value = figureId;
    prepare();
    form.requestSubmit();
  }

  function closeAttack() {
    var holder = document.getElementById("scene-attack");
    if (holder) holder.textContent = "";
    prepare();
  }

  // A refused attack (422, said in the page's notice) may be aimed again at another figure.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.id === "attack-form" && !event.detail.successful) {
      form.querySelector("[name=target]").value = "";
      prepare();
    }
  });

  // --- Pings.
  function preparePing() {
    var form = document.getElementById("scene-ping-form");
    if (!form) return;
    form.hidden = false;  // a page without JavaScript cannot point
    form.querySelector("[data-ping-toggle]").setAttribute("aria-pressed", pointing ? "true" : "false");
    form.querySelector("[data-ping-hint]").hidden = !pointing;
    var look = form.querySelector("[data-ping-look]");
    if (look) look.checked = looking;
    part.classList.toggle("pointing", pointing);
  }

  function pointAt(target) {
    var form = document.getElementById("scene-ping-form");
    var found = target.closest("[data-figure], .index-card, #scene-board .area[data-area]");
    if (!form || !found || !part.contains(found)) return false;
    var kind = found.dataset.figure ? "figure" : found.classList.contains("index-card") ? "card" : "area";
    form.querySelector("[name=kind]").value = kind;
    form.querySelector("[name=part]").value = found.id.slice(kind.length + 1);
    pointing = false;
    prepare();
    form.requestSubmit();
    return true;
  }

  function flash(ping) {
    var target = document.getElementById(ping.dataset.target);
    if (ping.hasAttribute("data-look")) {
      var place = part.dataset.view;
      var tab = place && document.querySelector("[data-view-tab='" + place + "']");
      if (tab && tab.offsetParent !== null) tab.click();  // a phone: its scene view
    }
    if (!target) return;
    target.classList.remove("pinged");
    void target.offsetWidth;  // restarts the animation for a second ping at the same part
    target.classList.add("pinged");
    if (ping.hasAttribute("data-look")) target.scrollIntoView({ block: "center", behavior: "smooth" });
    window.setTimeout(function () { target.classList.remove("pinged"); }, 2400);
  }

  var lastPing = null;
  var pingShown = null;
  function showPing() {
    var ping = document.querySelector("#scene-ping [data-ping]");
    if (!ping || ping.dataset.ping === lastPing) return;
    lastPing = ping.dataset.ping;
    flash(ping);
    window.clearTimeout(pingShown);
    pingShown = window.setTimeout(function () {
      var holder = document.getElementById("scene-ping");
      if (holder && holder.contains(ping)) holder.textContent = "";
    }, 5000);
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("[data-ping-look]")) looking = event.target.checked;
  });

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-ping-toggle]");
    if (toggle) {
      pointing = !pointing;
      picked = null;
      prepare();
      return;
    }
    if (pointing && event.target.closest && !event.target.closest("#scene-ping-form")) {
      if (pointAt(event.target)) {
        event.preventDefault();
        return;
      }
    }
    var attack = event.target.closest && event.target.closest("[data-attack]");
    if (attack && attackUrl) {
      openAttack(attack.closest(".figure").dataset.figure);
      return;
    }
    if (event.target.closest && event.target.closest("[data-attack-cancel]")) {
      closeAttack();
      return;
    }
    var button = event.target.closest && event.target.closest(".figure-button");
    if (button && part.contains(button)) {
      if (aiming()) aimAt(button.closest(".figure").dataset.figure);
      else pick(button.closest(".figure").dataset.figure);
      return;
    }
    var target = event.target.closest && event.target.closest("[data-move-here]");
    if (target && picked) move(picked, target.closest("[data-area]").dataset.area);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && (picked || pointing)) { picked = null; pointing = false; prepare(); }
    else if (event.key === "Escape" && aiming()) closeAttack();
  });

  // Dragging, where there is a mouse.
  document.addEventListener("dragstart", function (event) {
    var button = event.target.closest && event.target.closest(".figure-button");
    if (!button || button.disabled) return;
    event.dataTransfer.setData("text/plain", button.closest(".figure").dataset.figure);
    event.dataTransfer.effectAllowed = "move";
  });
  function dropArea(event) {
    var area = event.target.closest && event.target.closest("#scene-board .area");
    return area && area.dataset.area ? area : null;
  }
  document.addEventListener("dragover", function (event) {
    var area = dropArea(event);
    if (!area) return;
    event.preventDefault();
    area.classList.add("drop-target");
  });
  document.addEventListener("dragleave", function (event) {
    var area = dropArea(event);
    if (area && !area.contains(event.relatedTarget)) area.classList.remove("drop-target");
  });
  document.addEventListener("drop", function (event) {
    var area = dropArea(event);
    if (!area) return;
    event.preventDefault();
    area.classList.remove("drop-target");
    var id = event.dataTransfer.getData("text/plain");
    if (id) move(id, area.dataset.area);
  });

  // A pinned card's link in its area's box.
  function placePins() {
    document.querySelectorAll("#scene-board .area-pins").forEach(function (pins) { pins.remove(); });
    document.querySelectorAll("#scene-cards [data-pin]").forEach(function (card) {
      var area = document.getElementById("area-" + card.dataset.pin);
      if (!area) return;
      var pins = area.querySelector(".area-pins");
      if (!pins) {
        pins = document.createElement("div");
        pins.className = "area-pins";
        area.insertBefore(pins, area.querySelector("[data-move-here]"));
      }
      var link = document.createElement("a");
      link.className = "pin";
      link.href = "#" + card.id;
      link.textContent = card.querySelector(".card-title").textContent;
      pins.appendChild(link);
    });
  }

  // A handout opens full screen once per showing; closed, it stays closed until shown again.
  var SEEN = "fudgetable:handout";
  function openHandout() {
    var holder = document.getElementById("handout");
    var dialog = holder && holder.querySelector("dialog");
    if (!dialog || dialog.open) return;
    var shown = holder.dataset.shown;
    var seen = null;
    try { seen = window.sessionStorage.getItem(SEEN); } catch (error) { /* private */ }
    if (seen === shown) return;
    dialog.addEventListener("close", function () {
      try { window.sessionStorage.setItem(SEEN, shown); } catch (error) { /* private */ }
    });
    dialog.showModal();
  }

  // A new card, added: its form is emptied and folded again.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!event.detail.successful || !form.closest || !form.closest(".new-card")) return;
    form.reset();
    form.closest(".new-card").open = false;
  });

  document.addEventListener("htmx:wsAfterMessage", function () { prepare(); openHandout(); showPing(); });
  document.addEventListener("htmx:afterSettle", prepare);
  prepare();
  openHandout();
})();
