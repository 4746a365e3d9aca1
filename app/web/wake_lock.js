// Farkle Table: the screen stays on while a game is open at the table (app/views/table_awake.py).
// The app asks through Flet's Wakelock service, whose Flutter plugin loads its page-side script
// from assets/packages/wakelock_plus/assets/no_sleep.js and calls Wakelock.toggle(on) and
// Wakelock.enabled(). This script is served at that address in place of the plugin's NoSleep.js
// (app/venue/server.py on the local server, build/build_pwa.py in the PWA) because NoSleep.js
// never asks again once the browser has dropped the lock (it drops it whenever the page is
// hidden: another app, the phone locked), and where a browser has no Screen Wake Lock it plays a
// hidden video that only a tap may start, so the screen still went dark and no one was told.
// Here the lock is asked for again each time the page is shown while the table wants it, and a
// browser without the Screen Wake Lock is refused plainly (NO_WAKE_LOCK), so the table can say so.
var Wakelock = (() => {
  const NO_WAKE_LOCK = "farkle-no-wake-lock";
  let wanted = false;
  let held = null;
  let asking = null;
  const take = async () => {
    if (!wanted || held || document.visibilityState !== "visible") return;
    let lock;
    try {
      lock = await navigator.wakeLock.request("screen");
    } catch (refused) {  // battery saver, or hidden meanwhile: asked again when the page is shown
      console.info(`Farkle Table: the screen may go dark (${refused && refused.name}: ${refused && refused.message})`);
      return;
    }
    if (!wanted) {
      await lock.release();
      return;
    }
    held = lock;
    lock.addEventListener("release", () => { if (held === lock) held = null; });
  };
  const ask = () => {
    if (!asking) asking = take().finally(() => { asking = null; });
    return asking;
  };
  const letGo = async () => {
    wanted = false;
    const lock = held;
    held = null;
    if (lock && !lock.released) await lock.release();
  };
  document.addEventListener("visibilitychange", () => {
    if (wanted && document.visibilityState === "visible") ask();
  });
  return {
    enabled: async () => held !== null && !held.released,
    toggle: async (on) => {
      if (!("wakeLock" in navigator)) {
        if (on) throw `${NO_WAKE_LOCK}: this browser cannot keep the screen on`;
        return;
      }
      if (on) {
        wanted = true;
        await ask();
      } else {
        await letGo();
      }
    },
  };
})();
