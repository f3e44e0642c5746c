// Static hosts that ignore query strings (http-server, GitHub Pages, S3)
// answer /api/v1/matrix/?format=F&page=N with the folder's index.html. This
// script, loaded at the top of every browsable page, reads the query and,
// when this page does not answer it, moves to the file that does, before the
// rest of the page loads. On Netlify the redirect rules answer queries, so
// the page served already answers its query and the script does nothing.
(function () {
  'use strict';
  var FILES = {
    api: '', json: 'index.json', jsonp: 'index.js', yaml: 'index.yaml', jaspar: 'index.jaspar.txt',
    meme: 'index.meme.txt', transfac: 'index.transfac.txt', pfm: 'index.pfm.txt', bed: 'index.bed.txt'
  };
  var body = document.body;
  var query = new URLSearchParams(window.location.search);
  if (!query.has('format') && !query.has('page')) return;
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
    var last = Number(body.getAttribute('data-last-page'));
    // Without ?page= a query URL means page 1; a page folder itself means that page.
    var here = window.location.pathname.indexOf('/page/') >= 0 ? body.getAttribute('data-page') : '1';
    var page = query.has('page') ? query.get('page') : here;
    if (page === 'last') page = String(last);
    if (!/^[0-9]+$/.test(page) || Number(page) < 1 || Number(page) > last) {
      fail('Invalid page "' + page + '": pages run from 1 to ' + last + '.');
      return;
    }
    if (format === 'api' && Number(page) === Number(body.getAttribute('data-page'))) return;
    dir = '/api/v1/matrix/page/' + Number(page) + '/';
  } else if (format === 'api') {
    return;
  }
  window.location.replace(dir + FILES[format]);
})();
