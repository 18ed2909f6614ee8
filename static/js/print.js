// Print: a sheet's or a table aid's Print button, and its sections opened for the paper. A
// closed <details> prints nothing of what it holds, so a sheet's sections open before printing
// (Ctrl+P too) and the ones that were closed close again after. The other folds hold forms,
// which do not print.
(function () {
  var closed = [];

  function openFolds() {
    closed = Array.prototype.filter.call(document.querySelectorAll("details.section-fold"), function (fold) {
      return !fold.open;
    });
    closed.forEach(function (fold) { fold.open = true; });
  }

  function closeFolds() {
    closed.forEach(function (fold) { fold.open = false; });
    closed = [];
  }

  window.addEventListener("beforeprint", openFolds);
  window.addEventListener("afterprint", closeFolds);

  function printButtons() {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      if (!window.print || button.dataset.printReady) return;
      button.dataset.printReady = "1";
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  }
  document.addEventListener("DOMContentLoaded", printButtons);
  // A sheet redrawn by a tap's answer brings its button anew.
  document.addEventListener("htmx:afterSettle", printButtons);
})();
