// kansoku serve: live reload. Injected into pages by `kansoku serve` only;
// never part of a built site. It reloads the page after a good rebuild,
// keeping the scroll position (the URL, and so the language, is kept by
// location.reload), and shows the error overlay when a rebuild fails.
(function () {
  "use strict";
  var me = document.currentScript;
  var build = (me && me.getAttribute("data-build")) || "";
  var key = "kansoku-serve-scroll:" + location.pathname + location.search;

  try {
    var saved = sessionStorage.getItem(key);
    if (saved !== null) {
      sessionStorage.removeItem(key);
      var y = parseInt(saved, 10);
      if (!isNaN(y)) {
        var restore = function () { window.scrollTo(0, y); };
        if (document.readyState === "complete") {
          restore();
        } else {
          window.addEventListener("load", restore);
        }
      }
    }
  } catch (e) { /* storage disabled: reload without restoring */ }

  function reload() {
    try {
      sessionStorage.setItem(key, String(window.scrollY));
    } catch (e) { /* storage disabled */ }
    location.reload();
  }

  function showOverlay(markup) {
    var old = document.getElementById("kansoku-overlay");
    if (old) { old.remove(); }
    document.body.insertAdjacentHTML("beforeend", markup);
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t && t.closest && t.closest("[data-kansoku-dismiss]")) {
      var o = document.getElementById("kansoku-overlay");
      if (o) { o.remove(); }
    }
  });

  var delay = 250;
  function connect() {
    var scheme = location.protocol === "https:" ? "wss:" : "ws:";
    var ws = new WebSocket(scheme + "//" + location.host +
      "/__kansoku/ws?build=" + encodeURIComponent(build));
    ws.onopen = function () { delay = 250; };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "reload") {
        reload();
      } else if (msg.type === "error" && typeof msg.overlay === "string") {
        showOverlay(msg.overlay);
      }
    };
    // The server restarted or went away: try again; a restarted server
    // has a new build name, so the page reloads once it is back.
    ws.onclose = function () {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 4000);
    };
  }
  connect();
})();
