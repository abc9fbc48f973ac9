// msgexchange console: refreshes the overview every 5 s from /console/api/overview. Nothing else runs here;
// every other page is plain server-rendered HTML. Loaded from the jar only (Content-Security-Policy: script-src 'self').
(function () {
  'use strict';
  var overview = document.getElementById('overview');
  if (!overview) {
    return;
  }
  function sparkPoints(series) {
    var max = 1, points = [], i;
    for (i = 0; i < series.length; i++) { max = Math.max(max, series[i]); }
    for (i = 0; i < series.length; i++) {
      var x = series.length === 1 ? 0 : i * 600 / (series.length - 1);
      var y = 78 - series[i] * 74 / max;
      points.push(x.toFixed(1) + ',' + y.toFixed(1));
    }
    return points.join(' ');
  }
  function apply(data) {
    document.querySelectorAll('[data-k]').forEach(function (el) {
      var key = el.getAttribute('data-k');
      if (Object.prototype.hasOwnProperty.call(data.display, key)) {
        el.textContent = data.display[key];          // textContent: never parsed as HTML
      }
    });
    document.querySelectorAll('[data-card]').forEach(function (card) {
      card.classList.toggle('warn', data.warn[card.getAttribute('data-card')] === true);
    });
    var line = document.querySelector('#spark polyline');
    if (line) {
      line.setAttribute('points', sparkPoints(data.throughput));
    }
    document.body.classList.remove('stale');
  }
  function refresh() {
    fetch('/console/api/overview', {credentials: 'same-origin', headers: {'Accept': 'application/json'}})
      .then(function (response) {
        if (response.status === 401) {
          window.location.assign('/console/login?next=%2Fconsole%2F');
          throw new Error('logged out');
        }
        if (!response.ok) { throw new Error('HTTP ' + response.status); }
        return response.json();
      })
      .then(apply)
      .catch(function () { document.body.classList.add('stale'); });
  }
  setInterval(refresh, 5000);
}());
