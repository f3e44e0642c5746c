// Search over the prebuilt index (/static/search/index.json, pages/search.ts),
// fetched once; paging and filters reuse it. Every word of the query must
// match: the name (ignoring case, spaces and punctuation: "Sox-2" is SOX2),
// the start of the matrix or base id, or the start of a word of the
// collection, taxonomic group, species (scientific or common name, tax id),
// UniProt id, class, family or data type. Results are ranked: the name equal
// to the query, then names starting with it, then names containing it, then
// the rest; within a rank, list order (by name). Results are written with
// textContent, never as HTML.
(function () {
  'use strict';
  var ROUTES = window.JASPAR_ROUTES;
  var PAGE = 50;
  var input = document.getElementById('site-search');
  var status = document.getElementById('search-status');
  var results = document.getElementById('search-results');
  var pager = document.getElementById('search-pages');
  var form = document.getElementById('search-filters');
  var rows = null;
  var LOGO = (document.body.getAttribute('data-logo-size') || '48 26 130').split(' ').map(Number);

  function norm(s) { return String(s || '').toLowerCase(); }
  function compact(s) { return norm(s).replace(/[^a-z0-9]+/g, ''); }
  function words(s) { return norm(s).split(/[^a-z0-9.]+/).filter(Boolean); }
  /** A field's words, and the field without spaces or punctuation ("ChIP-seq" → chipseq), for queries typed either way. */
  function tokens(field) { var c = compact(field); return c ? words(field).concat([c]) : words(field); }

  /** Each matrix with what a query is matched against, prepared once. */
  function prepare(index) {
    var f = {};
    index.fields.forEach(function (name, i) { f[name] = i; });
    return index.matrices.map(function (m) {
      var species = m[f.species].map(function (n) { return index.species[n]; });
      var text = [m[f.collection], m[f.tax_group], m[f.uniprot_ids].join(' '), index.type[m[f.type]]]
        .concat(species.map(function (s) { return (s[0] === null ? '' : s[0]) + ' ' + s[1] + ' ' + s[2]; }))
        .concat(m[f.class].map(function (n) { return index.class[n]; }))
        .concat(m[f.family].map(function (n) { return index.family[n]; }));
      return {
        id: m[f.matrix_id], name: m[f.name], collection: m[f.collection], taxGroup: m[f.tax_group],
        species: species, latest: m[f.latest] === 1, length: m[f.length],
        idText: norm(m[f.matrix_id]), nameCompact: compact(m[f.name]),
        words: text.concat([m[f.name]]).reduce(function (all, field) { return all.concat(tokens(field)); }, []),
      };
    });
  }

  /** A word of the query as typed between spaces ("Sox-2" is one word). */
  function wordMatches(row, w) {
    var c = compact(w);
    if (c && row.nameCompact.indexOf(c) >= 0) return true;
    if (row.idText.indexOf(w) === 0) return true;
    for (var i = 0; i < row.words.length; i++) if (row.words[i].indexOf(w) === 0 || (c && row.words[i].indexOf(c) === 0)) return true;
    return false;
  }

  function rank(row, query) {
    var c = compact(query);
    var q = norm(query).trim();
    if (row.nameCompact === c || row.idText === q || row.idText.split('.')[0] === q) return 0;
    if (c && row.nameCompact.indexOf(c) === 0) return 1;
    if (c && row.nameCompact.indexOf(c) >= 0) return 2;
    return 3;
  }

  function state() {
    var p = new URLSearchParams(window.location.search);
    return { q: p.get('q') || '', collection: p.get('collection') || '', taxGroup: p.get('tax_group') || '', latest: p.get('latest') === '1', page: Math.max(1, Number(p.get('page')) || 1) };
  }

  function save(s) {
    var p = new URLSearchParams();
    if (s.q) p.set('q', s.q);
    if (s.collection) p.set('collection', s.collection);
    if (s.taxGroup) p.set('tax_group', s.taxGroup);
    if (s.latest) p.set('latest', '1');
    if (s.page > 1) p.set('page', String(s.page));
    var qs = p.toString();
    history.replaceState(null, '', qs ? '?' + qs : window.location.pathname);
  }

  function link(href, text) {
    var a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    return a;
  }
  function listHref(key, value) { return ROUTES.list + key + '/' + encodeURIComponent(value) + '/' + ROUTES.page + '1/'; }
  var PLAIN = /^[A-Za-z0-9_-]+$/;

  function cell(tr, content) {
    var td = document.createElement('td');
    (Array.isArray(content) ? content : [content]).forEach(function (c, i) {
      if (i > 0) td.appendChild(document.createTextNode(', '));
      if (c instanceof Node) td.appendChild(c); else td.appendChild(document.createTextNode(c));
    });
    tr.appendChild(td);
  }

  function render(s) {
    results.textContent = '';
    pager.textContent = '';
    pager.hidden = true;
    var query = s.q.trim();
    var ws = norm(query).split(/\s+/).filter(Boolean);
    if (!rows) return;
    if (ws.length === 0 && !s.collection && !s.taxGroup) {
      status.textContent = 'Type a name, an ID, a species, a UniProt ID, a class or a family.';
      return;
    }
    var found = [];
    rows.forEach(function (row, position) {
      if (s.collection && row.collection !== s.collection) return;
      if (s.taxGroup && row.taxGroup !== s.taxGroup) return;
      if (s.latest && !row.latest) return;
      if (!ws.every(function (w) { return wordMatches(row, w); })) return;
      found.push({ row: row, rank: query ? rank(row, query) : 3, position: position });
    });
    found.sort(function (a, b) { return a.rank - b.rank || a.position - b.position; });
    var last = Math.max(1, Math.ceil(found.length / PAGE));
    var page = Math.min(s.page, last);
    var what = query ? '"' + query + '"' : 'the filters';
    status.textContent = found.length === 0 ? 'No matrix matches ' + what + '.'
      : found.length + ' matri' + (found.length === 1 ? 'x matches ' : 'ces match ') + what + (last > 1 ? '; page ' + page + ' of ' + last + ' (' + PAGE + ' a page).' : '.');
    if (found.length === 0) return;
    var table = document.createElement('table');
    table.className = 'matrices';
    var caption = document.createElement('caption');
    caption.textContent = 'Search results';
    table.appendChild(caption);
    var head = document.createElement('tr');
    ['Matrix', 'Name', 'Collection', 'Taxon', 'Species', 'Logo'].forEach(function (h) { var th = document.createElement('th'); th.scope = 'col'; th.textContent = h; head.appendChild(th); });
    var thead = document.createElement('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var body = document.createElement('tbody');
    found.slice((page - 1) * PAGE, page * PAGE).forEach(function (hit) {
      var row = hit.row;
      var tr = document.createElement('tr');
      // ?format=api: on several hosts the folder URL answers JSON. Folders and
      // logos as the build laid them out (JASPAR_ROUTES, generator/routes/client.ts).
      var id = encodeURIComponent(row.id);
      var href = ROUTES.list + (ROUTES.idShard ? id.slice(0, ROUTES.idShard) + '/' : '') + id + '/?format=api';
      cell(tr, link(href, row.id));
      cell(tr, row.name);
      cell(tr, PLAIN.test(row.collection) ? link(listHref('collection', row.collection), row.collection) : row.collection);
      cell(tr, PLAIN.test(row.taxGroup) ? link(listHref('tax_group', row.taxGroup), row.taxGroup) : row.taxGroup);
      cell(tr, row.species.map(function (sp) { return sp[0] === null ? sp[1] : link(listHref('tax_id', String(sp[0])), sp[1]); }));
      var img = document.createElement('img');
      img.src = ROUTES.logos + (ROUTES.logoShard ? id.slice(0, ROUTES.logoShard) + '/' : '') + id + '.svg';
      img.alt = 'Sequence logo of ' + row.id;
      // The logo's size (logos/svg.ts logoSize: a fixed part and a pitch per column), so that results do not move as logos load.
      img.height = 50;
      img.width = Math.round(((LOGO[0] + LOGO[1] * row.length) * 50) / LOGO[2]);
      img.loading = 'lazy';
      var logo = document.createElement('a');
      logo.href = href;
      logo.tabIndex = -1;
      logo.appendChild(img);
      cell(tr, logo);
      tr.lastChild.className = 'logo-cell';
      body.appendChild(tr);
    });
    table.appendChild(body);
    results.appendChild(table);
    if (last > 1) {
      var ul = document.createElement('ul');
      var add = function (label, n, current) {
        var li = document.createElement('li');
        if (n === null || current) {
          var span = document.createElement('span');
          span.textContent = label;
          if (current) span.setAttribute('aria-current', 'page'); else span.className = 'disabled';
          li.appendChild(span);
        } else {
          var b = document.createElement('a');
          b.href = '#';
          b.textContent = label;
          b.addEventListener('click', function (e) { e.preventDefault(); s.page = n; save(s); render(s); status.focus(); });
          li.appendChild(b);
        }
        ul.appendChild(li);
      };
      add('‹ Previous', page > 1 ? page - 1 : null);
      for (var n = 1; n <= last; n++) if (n === 1 || n === last || Math.abs(n - page) <= 2) add(String(n), n, n === page);
      add('Next ›', page < last ? page + 1 : null);
      pager.appendChild(ul);
      pager.hidden = false;
    }
  }

  var s = state();
  input.value = s.q;
  form.elements.collection.value = s.collection;
  form.elements.tax_group.value = s.taxGroup;
  form.elements.latest.checked = s.latest;
  status.tabIndex = -1;
  status.textContent = 'Loading the index…';
  function update() {
    s.q = input.value;
    s.collection = form.elements.collection.value;
    s.taxGroup = form.elements.tax_group.value;
    s.latest = form.elements.latest.checked;
    s.page = 1;
    save(s);
    render(s);
  }
  fetch(document.body.getAttribute('data-index'))
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (data) {
      rows = prepare(data);
      render(s);
      input.addEventListener('input', update);
      form.addEventListener('change', update);
      form.addEventListener('submit', function (e) { e.preventDefault(); update(); });
    })
    .catch(function (e) { status.textContent = 'The search index could not be loaded (' + e.message + ').'; });
})();
