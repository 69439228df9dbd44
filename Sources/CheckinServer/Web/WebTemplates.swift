/// The organizer's pages as Mustache templates (swift-mustache), kept in the binary: no files to install, no
/// build step. `{{x}}` is HTML-escaped; the layout is the parent of every page.
enum WebTemplates {
    static let all: [String: String] = [
        "layout": layout, "sign-in": signIn, "events": events, "monitor": monitor, "monitor-live": monitorLive,
        "not-found": notFound, "forbidden": forbidden, "event-nav": eventNav, "dashboard": dashboard,
        "dashboard-live": dashboardLive,
    ]

    /// The links between an event's pages.
    static let eventNav = """
        <nav class="event-nav" aria-label="Event pages">
          <a href="/events/{{eventId}}">Dashboard</a>
          <a href="/events/{{eventId}}/monitor">Sync monitor</a>
        </nav>
        """

    static let dashboard = """
        {{<layout}}
        {{$title}}Dashboard · {{eventName}}{{/title}}
        {{$head}}<script src="/static/live.js" defer></script>{{/head}}
        {{$content}}
        <h1>{{eventName}}</h1>
        {{> event-nav}}
        <div id="dashboard-live" class="live" data-source="/events/{{eventId}}/live" aria-live="polite">
        {{> dashboard-live}}
        </div>
        {{/content}}
        {{/layout}}
        """

    static let dashboardLive = """
        <p class="muted">As of {{asOf}} (server time)</p>
        <section class="figures">
          <div class="card figure"><span class="big" id="checked-in">{{checkedIn}}</span> of {{guests}} guests checked in ({{percent}} %)</div>
          <div class="card figure"><span class="big" id="arrived-people">{{arrivedPeople}}</span> of {{expectedPeople}} people arrived</div>
          {{#cancelled}}<div class="card figure"><span class="big">{{cancelled}}</span> cancelled</div>{{/cancelled}}
        </section>
        {{#hasAlerts}}
        <section class="alerts" id="alerts" role="status">
          <h2>Just arrived: tell someone</h2>
          <ul>
          {{#alerts}}<li><strong>{{name}}</strong> at {{door}} {{time}}: {{alert}}</li>{{/alerts}}
          </ul>
        </section>
        {{/hasAlerts}}
        <h2>Arrivals per 5 minutes, by door</h2>
        <div class="card chart-box">{{{chart}}}</div>
        <h2>Last check-ins</h2>
        {{^hasRecent}}<p>No check-ins yet.</p>{{/hasRecent}}
        {{#hasRecent}}
        <table class="list" id="recent">
          <thead><tr><th scope="col">Guest</th><th scope="col">Door</th><th scope="col">Time</th><th scope="col">Arrived</th></tr></thead>
          <tbody>
          {{#recent}}<tr{{#alert}} class="alerted"{{/alert}}><th scope="row">{{name}}</th><td data-label="Door">{{door}}</td><td data-label="Time">{{time}}</td><td data-label="Arrived">{{party}}</td></tr>{{/recent}}
          </tbody>
        </table>
        {{/hasRecent}}
        """

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$title}}Check-in{{/title}}</title>
        <link rel="stylesheet" href="/static/style.css">
        {{$head}}{{/head}}
        </head>
        <body>
        <header class="top">
          <a class="brand" href="/events">Check-in</a>
          {{#organizer}}
          <span class="who">{{name}} · {{tenantName}}</span>
          <form method="post" action="/sign-out" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit">Sign out</button>
          </form>
          {{/organizer}}
        </header>
        <main id="main">
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """

    static let signIn = """
        {{<layout}}
        {{$title}}Sign in · Check-in{{/title}}
        {{$content}}
        <h1>Sign in</h1>
        {{#message}}<p class="error" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="/sign-in" class="card narrow">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required>
          <button type="submit">Sign in</button>
        </form>
        {{/content}}
        {{/layout}}
        """

    static let events = """
        {{<layout}}
        {{$title}}Events · Check-in{{/title}}
        {{$content}}
        <h1>Events</h1>
        {{^events}}<p>No events yet.</p>{{/events}}
        <ul class="events">
        {{#events}}
          <li class="card"><strong>{{name}}</strong> <span class="muted">{{venue}} · {{when}}</span>
            <a href="/events/{{id}}">Dashboard</a> · <a href="/events/{{id}}/monitor">Sync monitor</a></li>
        {{/events}}
        </ul>
        {{/content}}
        {{/layout}}
        """

    /// The sync monitor: the live part is its own template, fetched again every few seconds by live.js.
    static let monitor = """
        {{<layout}}
        {{$title}}Sync monitor · {{eventName}}{{/title}}
        {{$head}}<script src="/static/live.js" defer></script>{{/head}}
        {{$content}}
        <h1>Sync monitor <span class="muted">{{eventName}}</span></h1>
        {{> event-nav}}
        <div id="monitor-live" class="live" data-source="/events/{{eventId}}/monitor/live" aria-live="polite">
        {{> monitor-live}}
        </div>
        <noscript><p class="muted">Reload the page for the latest state.</p></noscript>
        {{/content}}
        {{/layout}}
        """

    static let monitorLive = """
        <p class="muted" id="as-of">As of {{asOf}} (server time) · {{deviceCount}} devices</p>
        {{#quiet}}
        <section class="empty" id="empty-state" role="status">
          <h2>No devices have synced in the last 30 minutes.</h2>
          <p>If your event is live, this may indicate a network problem at the venue.</p>
          {{#opsContact}}<p>Venue operations: <strong>{{opsContact}}</strong></p>{{/opsContact}}
        </section>
        {{/quiet}}
        {{#hasDevices}}
        <table class="devices">
          <caption class="visually-hidden">Devices of this event</caption>
          <thead><tr><th scope="col">Door</th><th scope="col">State</th><th scope="col">Last seen</th>
            <th scope="col">Roster fetched</th><th scope="col">Pending</th><th scope="col">Version</th>
            <th scope="col">Camera</th><th scope="col">Enrolled by</th></tr></thead>
          <tbody>
          {{#rows}}
            <tr id="device-{{id}}" data-health="{{health}}">
              <th scope="row">{{door}}<br><span class="muted small">{{id}}</span></th>
              <td data-label="State"><span class="pill pill-{{health}}">{{pill}}</span>{{#revoked}} <span class="pill pill-offline">revoked</span>{{/revoked}}</td>
              <td data-label="Last seen">{{lastSeen}}</td>
              <td data-label="Roster fetched">{{rosterFetched}}</td>
              <td data-label="Pending">{{pending}}</td>
              <td data-label="Version">{{version}}</td>
              <td data-label="Camera">{{camera}}</td>
              <td data-label="Enrolled by">{{enrolledBy}}</td>
            </tr>
          {{/rows}}
          </tbody>
        </table>
        {{/hasDevices}}
        {{^hasDevices}}<p>No kiosk is enrolled for this event yet.</p>{{/hasDevices}}
        """

    static let notFound = """
        {{<layout}}
        {{$title}}Not found · Check-in{{/title}}
        {{$content}}
        <h1>Not found</h1>
        <p>There is nothing here. <a href="/events">Back to your events</a>.</p>
        {{/content}}
        {{/layout}}
        """

    static let forbidden = """
        {{<layout}}
        {{$title}}Refused · Check-in{{/title}}
        {{$content}}
        <h1>Refused</h1>
        <p>This form was not sent from a page of this site, or it is too old. Go back, reload the page and try
          again.</p>
        {{/content}}
        {{/layout}}
        """
}
