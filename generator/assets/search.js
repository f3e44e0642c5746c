// Search over the prebuilt index (/static/search/index.json). Every word of
// the query must match the start of a word of the name, the id (matrix or
// base id), the collection or the taxonomic group, case-insensitively; a
// name that contains the word anywhere also matches. Results are written with
// textContent, never as HTML.
(function () {
  'use strict';
  var ROUTES = window.JASPAR_ROUTES;
  var MAX = 200;
  var input = document.getElementById('site-search');
  var status = document.getElementById('search-status');
  var results = document.getElementById('search-results');
  var index = null;

  function norm(s) { return String(s || '').toLowerCase(); }

  function matches(row, words) {
    var id = norm(row[0]);
    var name = norm(row[1]);
    var rest = [norm(row[2]), norm(row[3]), id.split('.')[0]];
    return words.every(function (w) {
      if (name.indexOf(w) >= 0 || id.indexOf(w) === 0) return true;
      return rest.some(function (f) { return f.indexOf(w) === 0; });
    });
  }

  function cell(tr, text, tag) {
    var td = document.createElement(tag || 'td');
    if (text instanceof Node) td.appendChild(text); else td.textContent = text;
    tr.appendChild(td);
  }

  function render(query) {
    var words = norm(query).split(/\s+/).filter(Boolean);
    results.textContent = '';
    if (!index || words.length === 0) return;
    var found = index.matrices.filter(function (row) { return matches(row, words); });
    status.textContent = found.length === 0 ? 'No matrix matches "' + query + '".'
      : found.length + ' matri' + (found.length === 1 ? 'x matches' : 'ces match') + ' "' + query + '"' + (found.length > MAX ? '; the first ' + MAX + ' are shown.' : '.');
    if (found.length === 0) return;
    var table = document.createElement('table');
    table.className = 'matrices';
    var head = document.createElement('tr');
    ['Matrix', 'Name', 'Collection', 'Taxon', 'Logo'].forEach(function (h) { var th = document.createElement('th'); th.scope = 'col'; th.textContent = h; head.appendChild(th); });
    var thead = document.createElement('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var body = document.createElement('tbody');
    found.slice(0, MAX).forEach(function (row) {
      var tr = document.createElement('tr');
      // ?format=api: on Netlify the folder URL answers JSON. Folders and
      // logos as the build laid them out (JASPAR_ROUTES, generator/routes/client.ts).
      var id = encodeURIComponent(row[0]);
      var href = ROUTES.list + (ROUTES.idShard ? id.slice(0, ROUTES.idShard) + '/' : '') + id + '/?format=api';
      var a = document.createElement('a');
      a.href = href;
      a.textContent = row[0];
      cell(tr, a);
      cell(tr, row[1]);
      cell(tr, row[2]);
      cell(tr, row[3]);
      var img = document.createElement('img');
      img.src = ROUTES.logos + (ROUTES.logoShard ? id.slice(0, ROUTES.logoShard) + '/' : '') + id + '.svg';
      img.alt = 'Sequence logo of ' + row[0];
      img.height = 60;
      img.loading = 'lazy';
      cell(tr, img);
      body.appendChild(tr);
    });
    table.appendChild(body);
    results.appendChild(table);
  }

  var query = new URLSearchParams(window.location.search).get('q') || '';
  input.value = query;
  status.textContent = 'Loading the index…';
  fetch(document.body.getAttribute('data-index'))
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (data) {
      index = data;
      status.textContent = 'Type a name, an id, a collection or a taxonomic group.';
      render(query);
      input.addEventListener('input', function () {
        var q = input.value;
        history.replaceState(null, '', q ? '?q=' + encodeURIComponent(q) : window.location.pathname);
        render(q);
      });
    })
    .catch(function (e) { status.textContent = 'The search index could not be loaded (' + e.message + ').'; });
})();
