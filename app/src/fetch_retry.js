// The split bundle fetches its WASM chunks as the page needs them, and a failed chunk stops
// the app (Leptos' lazy loading is not fallible). A tablet on a weak network drops a request
// now and then, so a same-origin GET under /pkg/ or /i18n/ (the texts, which the page needs
// before it hydrates) is retried on a network error or a 502/503/504 (a server restarting)
// before the failure is given to the app: five more tries, waiting 0.25, 0.5, 1, 2 and 4 s.
// Everything else is fetched as it was.
(() => {
  const fetchOnce = window.fetch.bind(window);
  const RETRY_STATUS = [502, 503, 504];
  const WAITS_MS = [250, 500, 1000, 2000, 4000];
  window.fetch = async (input, init) => {
    // Read without making a Request, which would take a streamed body away from `init`.
    const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (method.toUpperCase() !== "GET" || url.origin !== location.origin || !(url.pathname.startsWith("/pkg/") || url.pathname.startsWith("/i18n/"))) {
      return fetchOnce(input, init);
    }
    for (let attempt = 0; ; attempt++) {
      const last = attempt === WAITS_MS.length;
      try {
        const response = await fetchOnce(input, init);
        if (last || !RETRY_STATUS.includes(response.status)) return response;
      } catch (e) {
        if (last || e.name === "AbortError") throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, WAITS_MS[attempt]));
    }
  };
})();
