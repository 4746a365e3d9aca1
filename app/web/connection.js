// Farkle Table, local server mode: say so when the connection to the server is lost, and
// come back by itself. Every action the screen showed was saved before it was shown, so the
// banner can say what is safe; once the server answers again the page reloads, and the new
// session shows the stored game.
(() => {
  const Native = window.WebSocket;
  let lastHeard = null;
  let banner = null;
  let polling = null;
  const time = (date) => date.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
  const show = () => {
    if (!banner) {
      banner = document.createElement("div");
      banner.id = "farkle-connection-lost";
      banner.setAttribute("role", "alert");
      banner.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:2147483647;padding:12px 16px;" +
        "background:#B3261E;color:#fff;font:500 16px/1.4 Roboto,Arial,sans-serif;box-shadow:0 2px 6px #0006";
      document.body.appendChild(banner);
    }
    const saved = lastHeard ? `Everything shown up to ${time(lastHeard)} is saved.` : "Nothing was lost.";
    banner.textContent = `Connection to the scorekeeping server lost. ${saved} Reconnecting…`;
    if (!polling) {
      polling = setInterval(async () => {
        try {
          const answer = await fetch(location.href, {cache: "no-store"});
          if (answer.ok) location.reload();
        } catch (_) { /* still away */ }
      }, 2000);
    }
  };
  window.WebSocket = function (url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).endsWith("/ws")) {
      socket.addEventListener("message", () => { lastHeard = new Date(); });
      socket.addEventListener("close", () => { if (!window.farkleLeaving) show(); });
    }
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.addEventListener("beforeunload", () => { window.farkleLeaving = true; });
})();
