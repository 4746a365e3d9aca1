// Farkle Table: every value Flutter's preferences plugin reads from localStorage reaches the
// app, damaged or not, before Flutter starts. The plugin keeps its values under "flutter."
// keys as JSON and reads them all when it starts: a value that is not JSON (cut short, typed
// by hand) or is JSON null it skips without a word, so a damaged saved game vanished from
// Home unnamed; a list holding anything but texts made its read of that key never answer,
// so the app never started. Here, a "flutter." value that is not a JSON text is handed to
// the plugin as a JSON text of its raw characters: the app's store (app/storage/prefs.py)
// reads it, finds it is not one of its entries, keeps it aside with those characters and
// names it on Home. Nothing is written to localStorage here; another app's keys are only
// read, as the plugin reads them anyway. Injected into the PWA's page (build/build_pwa.py).
(() => {
  const PLUGIN_PREFIX = "flutter.";
  const getItem = Storage.prototype.getItem;
  const isJsonText = (value) => {
    if (value.length < 2 || value[0] !== '"' || value[value.length - 1] !== '"') return false;
    try {
      return typeof JSON.parse(value) === "string";
    } catch (notJson) {
      return false;
    }
  };
  Storage.prototype.getItem = function (key) {
    const value = getItem.call(this, key);
    if (value === null || typeof key !== "string" || !key.startsWith(PLUGIN_PREFIX) || isJsonText(value)) {
      return value;
    }
    return JSON.stringify(value);
  };
})();
