/// The one stylesheet and the one script of the organizer's pages, served from the binary.
enum WebAssets {
    static let style = """
        :root { --ink: #14181f; --paper: #ffffff; --muted: #4a5563; --line: #d5dae1; --accent: #1f4fd1;
          --ok: #1c6b3a; --ok-bg: #dcf3e4; --warn: #6b4e00; --warn-bg: #ffe9a8; --bad: #8a1020; --bad-bg: #ffd9de; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: #f4f6f8; }
        a { color: var(--accent); }
        a:focus, button:focus, input:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
        .top { display: flex; gap: 1rem; align-items: center; padding: .75rem 1rem; background: var(--ink); color: #fff; }
        .top a { color: #fff; font-weight: 700; text-decoration: none; }
        .top .who { margin-left: auto; }
        main { padding: 1rem; max-width: 72rem; margin: 0 auto; }
        .muted { color: var(--muted); } .small { font-size: .8rem; }
        .card { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
        #offline-alerts { margin-top: 1.5rem; } caption { text-align: left; font-weight: 700; padding: .5rem 0; }
        *, *::before, *::after { box-sizing: border-box; }
        .narrow { max-width: 24rem; width: 100%; display: grid; gap: .5rem; }
        .narrow input { width: 100%; min-width: 0; }
        input { font: inherit; padding: .5rem; border: 1px solid var(--muted); border-radius: 4px; }
        button { font: inherit; padding: .5rem 1rem; border: 0; border-radius: 4px; background: var(--accent); color: #fff; cursor: pointer; }
        .inline { display: inline; }
        .create-code { margin: 1rem 0; }
        .new-code { margin-bottom: 1rem; } .new-code .big { font-family: monospace; letter-spacing: .05em; }
        .error { color: var(--bad); background: var(--bad-bg); padding: .5rem; border-radius: 4px; }
        .events { list-style: none; padding: 0; display: grid; gap: .5rem; }
        table.devices { width: 100%; border-collapse: collapse; background: var(--paper); }
        .devices th, .devices td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        .pill { display: inline-block; padding: .1rem .6rem; border-radius: 999px; font-weight: 700; font-size: .85rem; }
        .pill-live { color: var(--ok); background: var(--ok-bg); }
        .pill-stale { color: var(--warn); background: var(--warn-bg); }
        .pill-offline { color: var(--bad); background: var(--bad-bg); }
        .pill-never_seen { color: var(--muted); background: #e6e9ed; }
        .behind { color: var(--warn); font-weight: 700; }
        .pass { max-width: 28rem; margin: 0 auto; text-align: center; }
        .pass-qr svg { width: min(80vw, 20rem); height: auto; }
        .code { font-family: monospace; font-size: 1.2rem; letter-spacing: .05em; }
        .empty { background: var(--bad-bg); color: var(--bad); border-radius: 8px; padding: 1rem; margin-bottom: 1rem; }
        .event-nav { display: flex; flex-wrap: wrap; gap: 1rem; margin-bottom: 1rem; }
        code { overflow-wrap: anywhere; }
        .top a:focus, .top button:focus { outline-color: #fff; }
        .figures { display: flex; flex-wrap: wrap; gap: .75rem; }
        .figure { flex: 1 1 12rem; } .big { font-size: 2rem; font-weight: 700; display: block; }
        .alerts, .alert { background: var(--warn-bg); color: var(--warn); border-radius: 8px; padding: .5rem 1rem; margin: 1rem 0; }
        .chart { width: 100%; height: auto; }
        table.list { width: 100%; border-collapse: collapse; background: var(--paper); }
        .list th, .list td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line);
          overflow-wrap: anywhere; }
        tr.alerted { background: var(--warn-bg); }
        .notice { color: var(--ok); background: var(--ok-bg); padding: .5rem; border-radius: 4px; }
        .columns { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: 1rem; }
        .search { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: .5rem; }
        .search label { flex-basis: 100%; }
        a.button { display: inline-block; font: inherit; padding: .5rem 1rem; border-radius: 4px; text-decoration: none; }
        button.secondary, a.button.secondary { background: #e6e9ed; color: var(--ink); }
        button.danger, a.button.danger { background: var(--bad); color: #fff; }
        tr.cancelled { background: #f4f5f7; } tr.cancelled .name { text-decoration: line-through; color: var(--muted); }
        #confirm form { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
        .qr { width: 12rem; height: 12rem; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        @media (max-width: 40rem) {
          .devices thead, .list thead { display: none; }
          .devices tr, .list tr { display: block; border-bottom: 2px solid var(--line); padding: .5rem 0; }
          .devices th, .devices td, .list th, .list td { display: block; border: 0; padding: .15rem .5rem; }
          .devices td[data-label]::before, .list td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
          .top { flex-wrap: wrap; }
        }
        """

    /// Live updates: every element of class `live` is fetched again from its `data-source` every 5 s and
    /// swapped in. Without JavaScript the page is the same, as of its last load.
    static let liveScript = """
        (function () {
          document.querySelectorAll(".live[data-source]").forEach(function (live) {
            var last = null;
            function refresh() {
              fetch(live.dataset.source, { credentials: "same-origin", cache: "no-store" })
                .then(function (r) {
                  if (r.status === 401) { live.insertAdjacentHTML("afterbegin", "<p class=\\"error\\">Signed out: reload the page.</p>"); return null; }
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
        """
}
