// Live updates: the server tells this page's version whenever it changes, and the page
// reloads itself to show the new one. Without this script the forms still work; reload by hand.
(function () {
  var body = document.body;
  var mine = body.getAttribute("data-version");
  var url = body.getAttribute("data-events");
  if (!url || !window.EventSource) return;
  var typing = function () {
    var a = document.activeElement;
    return a && a.tagName === "INPUT" && a.type === "text" && a.value !== "";
  };
  var pending = null;
  var source = new EventSource(url);
  source.onmessage = function (e) {
    if (e.data === mine) return;
    // Several moves in a row (bots) become one reload; a half-typed move is not thrown away.
    clearTimeout(pending);
    var reload = function () {
      if (typing()) { pending = setTimeout(reload, 1000); return; }
      source.close();
      window.location.reload();
    };
    pending = setTimeout(reload, 30);
  };
})();
