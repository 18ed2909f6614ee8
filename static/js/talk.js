// The composer under the table's log (templates/rolls/talk/parts.html, rolls/talk/services.py): one line that
// grows with what is typed, Enter sends (Shift+Enter starts a new line), emptied once the line
// landed; the whisper fold says whom it goes to, and Reply on a whisper picks its people. A message that mentions this person badges
// their log's tab, and the browser's tab while the page is out of sight. Without this file
// the composer is a plain form.
(function () {
  "use strict";
  var page = document.getElementById("table-page");
  var form = document.getElementById("talk");
  if (!page || !form) return;
  var line = form.querySelector("textarea");
  var me = page.dataset.me;

  function grow() {
    line.style.height = "auto";
    line.style.height = Math.min(line.scrollHeight + 2, 160) + "px";
  }
  line.addEventListener("input", grow);
  line.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (line.value.trim()) form.requestSubmit();
  });

  // The line is emptied once the table took it (the answer says data-sent), and kept with
  // the refusal's words under it otherwise.
  form.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt !== form || !event.detail.successful) return;
    var answer = document.getElementById("talk-answer");
    if (answer && answer.hasAttribute("data-sent")) {
      line.value = "";
      grow();
    }
    line.focus();
  });

  // Whom a line goes to, in the picker's summary. The picker is drawn afresh, to everyone,
  // by the answer to a whisper (rolls/talk/views.py), so it is looked up each time; and read
  // at load, in case the browser brought back ticks the page did not draw.
  function showWhom() {
    var to = document.getElementById("talk-to");
    if (!to) return;
    var words = to.querySelector(".composer-to-words");
    var names = Array.prototype.map.call(
      to.querySelectorAll("input:checked"), function (box) { return box.dataset.name; });
    words.textContent = names.length
      ? words.dataset.whisper + " " + names.join(", ") : words.dataset.everyone;
    to.classList.toggle("whispering", names.length > 0);
  }
  form.addEventListener("change", function (event) {
    if (event.target.closest("#talk-to")) showWhom();
  });
  showWhom();

  // Reply on a whisper: the composer whispers to its people but this person (whoever of them
  // is still at the table), ready to type.
  document.addEventListener("click", function (event) {
    var reply = event.target.closest && event.target.closest(".talk-reply");
    var to = document.getElementById("talk-to");
    if (!reply) return;
    var people = reply.dataset.reply.split(" ").filter(function (id) { return id && id !== me; });
    var ticked = 0;
    if (to) {
      to.querySelectorAll('input[name="to"]').forEach(function (box) {
        box.checked = people.indexOf(box.value) >= 0;
        if (box.checked) ticked++;
      });
      to.open = false;
    }
    showWhom();
    var answer = document.getElementById("talk-answer");
    if (!ticked && answer) {
      // Nobody to whisper to: say so, rather than leave the picker at everyone unremarked.
      answer.textContent = "";
      var gone = document.createElement("p");
      gone.className = "message message-error";
      gone.textContent = form.dataset.replyGone;
      answer.appendChild(gone);
    }
    line.focus();
  });

  // The "You rolled" of a typed roll is put away once the person is done with it.
  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest(".composer-rolled-close");
    if (close) close.closest(".composer-rolled").textContent = "";
  });

  // A mention of this person: their log's tab says so, and the browser's tab while hidden.
  var title = document.title;
  function mentioned(fragment) {
    var entries = fragment.querySelectorAll ? fragment.querySelectorAll("li[data-mentions]") : [];
    return Array.prototype.some.call(entries, function (entry) {
      return entry.dataset.mentions.split(" ").indexOf(me) >= 0;
    });
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (event.detail.target.id !== "roll-log" || !mentioned(event.detail.fragment)) return;
    page.querySelectorAll('[data-view-tab="log"] .tab-badge').forEach(function (badge) {
      badge.classList.add("tab-badge-mention");
      if (page.dataset.viewNow !== "log") {
        badge.hidden = false;
        if (!badge.textContent) badge.textContent = "@";
      }
    });
    if (document.hidden) document.title = "(@) " + title;
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) document.title = title;
  });
  page.querySelectorAll('[data-view-tab="log"]').forEach(function (tab) {
    tab.addEventListener("click", function () {
      var badge = tab.querySelector(".tab-badge");
      if (badge) badge.classList.remove("tab-badge-mention");
    });
  });
  // Mentions of this person stand out in the log.
  function markMine(root) {
    root.querySelectorAll('.mention[data-person="' + me + '"]').forEach(function (mention) {
      mention.classList.add("mention-me");
    });
  }
  markMine(document);
  document.addEventListener("htmx:wsAfterMessage", function () { markMine(document); });
})();
