// Live updates: every element of class `live` is fetched again from its `data-source` every 5 s and
// swapped in. Without JavaScript the page is the same, as of its last load.
(function () {
  document.querySelectorAll(".live[data-source]").forEach(function (live) {
    var last = null;
    function refresh() {
      fetch(live.dataset.source, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) {
          if (r.status === 401) { live.insertAdjacentHTML("afterbegin", "<p class=\"error\">Signed out: reload the page.</p>"); return null; }
          if (!r.ok) throw new Error(String(r.status));
          return r.text();
        })
        .then(function (html) {
          if (html === null) return;
          // Only a change is swapped in: focus and screen readers are left alone otherwise.
          if (html !== last) { last = html; live.innerHTML = html; }
          live.dataset.updated = String(Date.now());
          setTimeout(refresh, Number(live.dataset.interval || 5000));
        })
        .catch(function () { setTimeout(refresh, Number(live.dataset.interval || 5000)); });
    }
    setTimeout(refresh, Number(live.dataset.interval || 5000));
  });
})();
