// repo-console: the little behaviour the pages need. No inline scripts (CSP), no eval.
(function () {
  "use strict";

  // ---- Theme: light / dark, remembered in this browser.
  var root = document.documentElement;
  var saved = null;
  try { saved = localStorage.getItem("repo-console-theme"); } catch (e) { /* storage blocked */ }
  if (saved === "dark" || saved === "light") { root.setAttribute("data-theme", saved); }

  function currentTheme() {
    var explicit = root.getAttribute("data-theme");
    if (explicit) { return explicit; }
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  function labelThemeButton() {
    var button = document.getElementById("theme-toggle");
    if (!button) { return; }
    var next = currentTheme() === "dark" ? "light" : "dark";
    button.textContent = next === "dark" ? "\u263E Dark" : "\u2600 Light";
    button.setAttribute("aria-label", "Switch to the " + next + " theme");
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("#theme-toggle");
    if (!toggle) { return; }
    var next = currentTheme() === "dark" ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("repo-console-theme", next); } catch (e) { /* storage blocked */ }
    labelThemeButton();
  });

  // ---- The deploy modal: type-to-confirm, Cancel / Esc, focus kept inside and given back.
  var opener = null;

  function modal() { return document.getElementById("deploy-modal"); }

  function syncConfirmButton() {
    var m = modal();
    if (!m) { return; }
    var input = m.querySelector("input[name=confirm]");
    var confirm = m.querySelector("[data-modal-confirm]");
    if (!input || !confirm) { return; }
    // An attribute comparison: the exact text, same case, no trimming; a rollback's
    // reason must not be blank.
    var reason = m.querySelector("input[name=reason]");
    var override = m.querySelector("input[name=override]");
    var reasonNeeded = reason !== null && (reason.required || (override !== null && override.checked));
    confirm.disabled = input.value !== m.getAttribute("data-confirm") ||
      (reasonNeeded && reason.value.trim() === "");
  }

  function closeModal() {
    var host = document.getElementById("modal-host");
    if (host) { host.innerHTML = ""; }
    giveFocusBack();
  }

  function giveFocusBack() {
    var target = opener && document.contains(opener) ? opener : document.getElementById("deploy-banner");
    if (target) {
      if (!target.hasAttribute("tabindex") && target.id === "deploy-banner") { target.setAttribute("tabindex", "-1"); }
      target.focus();
    }
    opener = null;
  }

  function focusables(m) {
    return Array.prototype.filter.call(
      m.querySelectorAll("button, input, a[href], [tabindex]:not([tabindex='-1'])"),
      function (el) { return !el.disabled && el.type !== "hidden"; }
    );
  }

  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("#deploy-modal")) { syncConfirmButton(); }
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-modal-cancel]")) { closeModal(); }
    var deploy = event.target.closest && event.target.closest("[data-deploy-version], [data-rollback-version]");
    if (deploy) { opener = deploy; }
  });

  document.addEventListener("keydown", function (event) {
    var m = modal();
    if (!m) { return; }
    if (event.key === "Escape") { event.preventDefault(); closeModal(); return; }
    if (event.key === "Tab") {
      var items = focusables(m);
      if (items.length === 0) { return; }
      var first = items[0], last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
      else if (!m.contains(document.activeElement)) { event.preventDefault(); first.focus(); }
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "modal-host") { return; }
    var m = modal();
    if (m) {
      syncConfirmButton();
      var input = m.querySelector("input[name=confirm]") || focusables(m)[0];
      // The field is at the dialog's foot: focusing it must not scroll the dialog past
      // what the deploy changes; the dialog opens at its top.
      if (input) { input.focus({ preventScroll: true }); }
      m.scrollTop = 0;
    } else {
      giveFocusBack();
    }
  });

  // ---- The deploy under way: once the confirm form is sent, the dialog shows the deploy's
  // steps (fetched from data-progress-url every second) until the answer replaces it.
  var progressTimer = null;

  function stopProgress() {
    if (progressTimer !== null) { window.clearInterval(progressTimer); progressTimer = null; }
  }

  function showProgress(box) {
    var url = box.getAttribute("data-progress-url");
    if (!url || !window.fetch) { return; }
    box.hidden = false;
    box.textContent = "Sending the deploy\u2026";
    var ask = function () {
      window.fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then(function (answer) { return answer.ok ? answer.text() : null; })
        .then(function (html) {
          // The answer may have come meanwhile: then the box is gone, and so is the timer.
          if (html !== null && progressTimer !== null && document.contains(box)) { box.innerHTML = html; }
        })
        .catch(function () { /* the next tick asks again */ });
    };
    stopProgress();
    progressTimer = window.setInterval(ask, 1000);
    ask();
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (!form || !form.matches || !form.matches("#deploy-modal form.confirm-form")) { return; }
    var box = document.getElementById("deploy-progress");
    if (box) { showProgress(box); }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (form && form.matches && form.matches("#deploy-modal form.confirm-form")) { stopProgress(); }
  });

  // ---- A request's page: Approve is enabled once the repository's name is typed, as the
  // modal's Confirm deploy is (a button the policy refuses stays disabled).
  function syncApproveButton() {
    var form = document.querySelector("form.approve-form[data-confirm]");
    if (!form) { return; }
    var input = form.querySelector("input[name=confirm]");
    var approve = form.querySelector("[data-request-action=approve]");
    if (!input || !approve || approve.hasAttribute("data-denied")) { return; }
    approve.disabled = input.value !== form.getAttribute("data-confirm");
  }

  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("form.approve-form")) { syncApproveButton(); }
  });
  // Back to the page from the history: the field may hold what was typed before.
  window.addEventListener("pageshow", syncApproveButton);

  document.addEventListener("DOMContentLoaded", labelThemeButton);
  document.addEventListener("DOMContentLoaded", syncApproveButton);
})();
