// Static hosts that ignore query strings (http-server, GitHub Pages, S3)
// answer /api/v1/matrix/?format=F&page=N with the folder's index.html. This
// script, loaded at the top of every browsable page, reads the query and,
// when this page does not answer it, moves to the file that does, before the
// rest of the page loads. On Netlify the redirect rules answer queries, so
// the page served already answers its query and the script does nothing.
// The folder layout comes from JASPAR_ROUTES, which the build writes in
// front of this script (generator/routes/client.ts).

/**
 * The folder of a list view: values (decoded) by parameter, laid out as the
 * route table's listView pattern (JASPAR_ROUTES.view) nests them; the page
 * size only when not the default. Both scripts below build list folders
 * with it; none spells the layout itself.
 */
function listViewFolder(values) {
  'use strict';
  var ROUTES = window.JASPAR_ROUTES;
  var dir = ROUTES.list;
  ROUTES.view.forEach(function (part) {
    var value = values[part[0]];
    if (!value || (part[0] === 'page_size' && value === String(ROUTES.defaultPageSize))) return;
    dir += part[1] + encodeURIComponent(value) + part[2];
  });
  return dir;
}

/** The values (decoded) a list folder holds, by parameter: the reverse of listViewFolder. */
function listViewValues(dir) {
  'use strict';
  var ROUTES = window.JASPAR_ROUTES;
  var values = {};
  if (dir.indexOf(ROUTES.list) !== 0) return values;
  var rest = dir.slice(ROUTES.list.length);
  ROUTES.view.forEach(function (part) {
    if (rest.indexOf(part[1]) !== 0) return;
    var end = rest.indexOf(part[2], part[1].length);
    if (end <= part[1].length) return;
    values[part[0]] = decodeURIComponent(rest.slice(part[1].length, end));
    rest = rest.slice(end + part[2].length);
  });
  return values;
}

(function () {
  'use strict';
  var ROUTES = window.JASPAR_ROUTES;
  var FILES = ROUTES.files;
  var body = document.body;
  var query = new URLSearchParams(window.location.search);
  var FILTERS = ROUTES.filters;
  var relevant = ['format', 'page', 'page_size'].concat(FILTERS);
  var any = false;
  for (var k = 0; k < relevant.length; k++) any = any || query.has(relevant[k]);
  if (!any) return;
  var format = query.get('format') || 'api';
  var kind = body.getAttribute('data-kind');
  var dir = body.getAttribute('data-dir');

  function fail(message) {
    function show() {
      var main = document.querySelector('main');
      var p = document.createElement('p');
      p.className = 'error';
      p.setAttribute('role', 'alert');
      p.textContent = message;
      main.insertBefore(p, main.firstChild);
    }
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
    else show();
  }

  if (!Object.prototype.hasOwnProperty.call(FILES, format)) {
    fail('Unknown format "' + format + '". Formats: ' + Object.keys(FILES).join(', ') + '.');
    return;
  }
  if (kind === 'list') {
    // The list view the query asks for: filters and page size are folders
    // (/api/v1/matrix/collection/CORE/page_size/1000/page/2/), as the build lays them out.
    var pageless = new RegExp(ROUTES.page + '[0-9]+/$');
    var viewDir = dir.replace(pageless, '');
    var asked = query.has('page_size');
    for (var i = 0; i < FILTERS.length; i++) asked = asked || query.has(FILTERS[i]);
    if (asked) {
      // The filters of the page's own folder (/api/v1/collections/CORE/ holds
      // CORE's first page), overridden by the query's; the page size only the query's.
      var values = listViewValues(viewDir);
      delete values.page_size;
      for (var q = 0; q < relevant.length; q++) if (relevant[q] !== 'format' && relevant[q] !== 'page' && query.has(relevant[q])) values[relevant[q]] = query.get(relevant[q]);
      viewDir = listViewFolder(values);
    }
    var sameView = viewDir === dir.replace(pageless, '');
    var last = Number(body.getAttribute('data-last-page'));
    // Without ?page= a query URL means page 1; a page folder itself means that page.
    var here = window.location.pathname.indexOf('/' + ROUTES.page) >= 0 && sameView ? body.getAttribute('data-page') : '1';
    var page = query.has('page') ? query.get('page') : here;
    if (page === 'last') {
      // Only the view's own pages know their last page: ask its first page.
      if (!sameView) { window.location.replace(viewDir + ROUTES.page + '1/' + window.location.search); return; }
      page = String(last);
    }
    if (!/^[0-9]+$/.test(page) || Number(page) < 1 || (sameView && Number(page) > last)) {
      fail('Invalid page "' + page + '": pages run from 1 to ' + last + '.');
      return;
    }
    if (format === 'api' && sameView && Number(page) === Number(body.getAttribute('data-page'))) return;
    dir = viewDir + ROUTES.page + Number(page) + '/';
  } else if (format === 'api') {
    return;
  }
  window.location.replace(dir + FILES[format]);
})();

// What the pages for people do with JavaScript: the filter form and the page
// box go straight to the list folder they mean (every combination the form
// offers is pre-rendered), and the reverse complement's logo, drawn into the
// matrix page, is offered as an SVG file.
(function () {
  'use strict';
  var ROUTES = window.JASPAR_ROUTES;

  function ready() {
    var filters = document.querySelector('form[data-filters]');
    if (filters) {
      filters.hidden = false;
      filters.addEventListener('submit', function (event) {
        event.preventDefault();
        var values = {
          collection: filters.elements.collection.value,
          tax_group: filters.elements.tax_group.value,
          version: filters.elements.version.checked ? 'latest' : '',
          page_size: filters.elements.page_size.value,
        };
        window.location.href = listViewFolder(values) + ROUTES.page + '1/';
      });
    }
    var jump = document.querySelector('form[data-jump]');
    if (jump && new RegExp(ROUTES.page + '[0-9]+/$').test(document.body.getAttribute('data-dir'))) {
      jump.hidden = false;
      jump.addEventListener('submit', function (event) {
        var input = jump.elements.page;
        var n = Number(input.value);
        var last = Number(input.max);
        var dir = document.body.getAttribute('data-dir');
        var pageless = new RegExp(ROUTES.page + '[0-9]+/$');
        event.preventDefault();
        if (!(n >= 1 && n <= last && Math.floor(n) === n)) {
          input.setCustomValidity('Pages run from 1 to ' + last + '.');
          input.reportValidity();
          input.setCustomValidity('');
          return;
        }
        window.location.href = dir.replace(pageless, ROUTES.page + n + '/');
      });
    }
    // The counts table says that it scrolls only where it does (the screen is narrower than the table).
    Array.prototype.forEach.call(document.querySelectorAll('.scroll-cue'), function (cue) {
      var region = cue.nextElementSibling;
      var check = function () { cue.hidden = !(region && region.scrollWidth > region.clientWidth + 1); };
      check();
      window.addEventListener('resize', check);
    });
    Array.prototype.forEach.call(document.querySelectorAll('a[data-svg-download]'), function (link) {
      var svg = link.closest('figure').querySelector('svg');
      if (!svg) return;
      link.href = URL.createObjectURL(new Blob([svg.outerHTML + '\n'], { type: 'image/svg+xml' }));
      link.hidden = false;
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
})();
