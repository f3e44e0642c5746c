// Static hosts that ignore query strings (http-server, GitHub Pages, S3)
// answer /api/v1/matrix/?format=F&page=N with the folder's index.html. This
// script, loaded by every browsable page, reads the query and moves to the
// file that answers it, so query URLs are no dead end there. On Netlify the
// redirect rules answer queries before this page is ever served.
(function () {
  'use strict';
  var FILES = {
    api: '', json: 'index.json', jsonp: 'index.js', yaml: 'index.yaml', jaspar: 'index.jaspar.txt',
    meme: 'index.meme.txt', transfac: 'index.transfac.txt', pfm: 'index.pfm.txt', bed: 'index.bed.txt'
  };
  var query = new URLSearchParams(window.location.search);
  if (!query.has('format') && !query.has('page')) return;
  var format = query.get('format') || 'api';
  var kind = document.body.getAttribute('data-kind');
  var dir = window.location.pathname.replace(/[^/]*$/, '');
  function fail(message) {
    var main = document.querySelector('main');
    var p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = message;
    main.insertBefore(p, main.firstChild);
  }
  if (!Object.prototype.hasOwnProperty.call(FILES, format)) {
    fail('Unknown format "' + format + '". Formats: ' + Object.keys(FILES).join(', ') + '.');
    return;
  }
  if (kind === 'list') {
    var last = Number(document.body.getAttribute('data-last-page'));
    var page = query.has('page') ? query.get('page') : '1';
    if (page === 'last') page = String(last);
    if (!/^[0-9]+$/.test(page) || Number(page) < 1 || Number(page) > last) {
      fail('Invalid page "' + page + '": pages run from 1 to ' + last + '.');
      return;
    }
    dir = dir.replace(/\/page\/[0-9]+\/$/, '/') + 'page/' + Number(page) + '/';
  }
  var target = dir + FILES[format];
  if (target !== window.location.pathname) window.location.replace(target);
})();
