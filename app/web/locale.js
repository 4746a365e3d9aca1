// Farkle Table: a start that survives any language setting, before Flutter reads it.
// Flutter's web client parses every tag in navigator.languages with Intl.Locale and never
// starts when one is not a language tag: WebKitGTK under LANG=C.UTF-8 reports "C", and a
// browser may report "en_US" or a made-up tag. The page keeps the tags it can use
// ("en_US.UTF-8" read as "en-US") and falls back to English when none is left. The app then
// asks the client for these languages (page.get_device_info) and shows its text in the first
// one it has a catalogue for (app/i18n/__init__.py). Served in the local server's page (app/venue/server.py)
// and the PWA's (build/build_pwa.py).
(() => {
  const usable = (tag) => {
    try {
      return Intl.getCanonicalLocales(tag)[0] || null;
    } catch (refused) {
      return null;
    }
  };
  const reported = navigator.languages && navigator.languages.length
    ? Array.from(navigator.languages) : [navigator.language];
  const kept = [];
  for (const tag of reported) {
    const readable = usable(String(tag || "").split(".")[0].replace(/_/g, "-"));
    if (readable && !kept.includes(readable)) kept.push(readable);
  }
  if (kept.length === reported.length && kept.every((tag, i) => tag === reported[i])) return;
  if (!kept.length) kept.push("en-US");
  console.info(`Farkle Table: the browser's languages ${JSON.stringify(reported)} read as ${JSON.stringify(kept)}`);
  Object.defineProperty(navigator, "languages", {configurable: true, get: () => kept.slice()});
  Object.defineProperty(navigator, "language", {configurable: true, get: () => kept[0]});
})();
