/*
 * The payment page's only script, served by the core itself (CSP: script-src 'self').
 * It adds what a static page cannot: the live countdown, status polling without a reload,
 * "I have paid" and the receipt upload without leaving the page, copy buttons, and the
 * redirect to the shop once the payment is final. Without it the page still works: the
 * forms post and the server answers with the page again.
 */
/* global document, window, fetch, FormData, navigator, setTimeout, clearTimeout, setInterval, clearInterval */
(function () {
  'use strict';

  var root = document.getElementById('payment');
  if (!root || !root.dataset.statusUrl) return;

  var data = root.dataset;
  var MAX_RECEIPT_BYTES = 10 * 1024 * 1024;
  var pollMs = Number(data.pollMs) || 3000;
  var redirectMs = Number(data.redirectMs) || 4000;

  var el = {
    status: document.getElementById('status'),
    statusTitle: document.getElementById('status-title'),
    statusText: document.getElementById('status-text'),
    timer: document.getElementById('timer'),
    timerRow: document.getElementById('timer-row'),
    notice: document.getElementById('notice'),
    details: document.getElementById('details'),
    actions: document.getElementById('actions'),
    paidForm: document.getElementById('paid-form'),
    proofForm: document.getElementById('proof-form'),
    copyStatus: document.getElementById('copy-status'),
  };

  var currentStatus =
    ((el.status && el.status.className.match(/status-([a-z_]+)/)) || [])[1] || null;
  var deadline = data.secondsLeft === '' ? null : Date.now() + Number(data.secondsLeft) * 1000;
  var finished = false;
  var pollTimer = null;
  var tickTimer = null;
  var failures = 0;

  function formatCountdown(seconds) {
    var h = Math.floor(seconds / 3600);
    var mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
    var ss = String(seconds % 60).padStart(2, '0');
    return h > 0 ? h + ':' + mm + ':' + ss : mm + ':' + ss;
  }

  function remove(node) {
    if (node && node.parentNode) node.parentNode.removeChild(node);
  }

  function showNotice(text, kind) {
    if (!el.notice) return;
    el.notice.className = 'notice' + (kind ? ' is-' + kind : '');
    el.notice.textContent = text || '';
  }

  function errorText(code) {
    switch (code) {
      case 'ERROR_INVALID_DOCUMENT_TYPE':
        return data.msgFileType;
      case 'ERROR_FILE_TOO_LARGE':
        return data.msgFileTooLarge;
      case 'ERROR_INVALID_REQUEST':
        return data.msgFileMissing;
      case 'ERROR_TRANSACTION_STATUS_CONFLICT':
        return data.msgConflict;
      default:
        return data.msgError;
    }
  }

  /* The countdown follows the server's remaining seconds, not the device clock, which may be off. */
  function tick() {
    if (deadline === null || !el.timer) return;
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    var text = formatCountdown(left);
    if (el.timer.textContent !== text) el.timer.textContent = text;
    if (left === 0) {
      deadline = null;
      // Time is up: the details must go at once, before the server confirms the expiry.
      remove(el.details);
      remove(el.actions);
      // The server's seconds are rounded down, so its deadline is up to a second later.
      schedulePoll(1000);
    }
  }

  /* `onLoad`: the page was final when served; focus stays where the browser put it. */
  function finish(body, onLoad) {
    finished = true;
    clearTimeout(pollTimer);
    clearInterval(tickTimer);
    remove(el.details);
    remove(el.actions);
    remove(el.timerRow);
    root.classList.add('is-final');
    if (!onLoad && el.statusTitle) {
      // The result replaces the controls the payer was using: move focus to it.
      el.statusTitle.tabIndex = -1;
      el.statusTitle.focus();
    }
    if (body.redirectUrl && !document.getElementById('redirect')) {
      var line = document.createElement('p');
      line.className = 'redirect';
      line.id = 'redirect';
      line.appendChild(document.createTextNode(data.msgRedirecting + ' '));
      var link = document.createElement('a');
      link.href = body.redirectUrl;
      link.id = 'redirect-link';
      link.rel = 'noreferrer';
      link.textContent = data.msgReturnLink;
      line.appendChild(link);
      el.notice.parentNode.insertBefore(line, el.notice.nextSibling);
    }
    if (body.redirectUrl) {
      setTimeout(function () {
        window.location.assign(body.redirectUrl);
      }, redirectMs);
    }
  }

  function apply(body) {
    if (!body || typeof body.status !== 'string') return;
    if (body.status !== currentStatus) {
      currentStatus = body.status;
      // A notice about the previous status would now mislead; an action's own notice follows apply().
      showNotice('', null);
      el.status.className = 'status status-' + body.status;
      el.statusTitle.textContent = body.title;
      el.statusText.textContent = body.text;
    }
    if (el.paidForm) el.paidForm.hidden = !body.canConfirm;
    if (el.proofForm) el.proofForm.hidden = !body.canUpload;
    if (el.actions) el.actions.hidden = !body.canConfirm && !body.canUpload;
    if (typeof body.secondsLeft === 'number') {
      deadline = Date.now() + body.secondsLeft * 1000;
    } else {
      deadline = null;
      remove(el.timerRow);
    }
    if (body.final) finish(body);
  }

  function schedulePoll(delay) {
    if (finished) return;
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, delay);
  }

  function poll() {
    fetch(data.statusUrl, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'same-origin',
    })
      .then(function (res) {
        if (!res.ok) throw new Error('status ' + res.status);
        return res.json();
      })
      .then(function (body) {
        if (failures > 0) showNotice('', null);
        failures = 0;
        apply(body);
        schedulePoll(pollMs);
      })
      .catch(function () {
        failures += 1;
        if (failures >= 2) showNotice(data.msgNetworkError, 'error');
        schedulePoll(pollMs * Math.min(10, Math.pow(2, failures)));
      });
  }

  function send(form, body) {
    var button = form.querySelector('button[type="submit"]');
    var label = button.textContent;
    button.disabled = true;
    button.textContent = data.msgSending;
    form.setAttribute('aria-busy', 'true');
    showNotice('', null);
    return fetch(form.action, {
      method: 'POST',
      body: body,
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    })
      .then(function (res) {
        return res
          .json()
          .catch(function () {
            return {};
          })
          .then(function (json) {
            if (res.ok) {
              apply(json);
              if (!finished) showNotice(json.notice, 'ok');
              form.reset();
            } else {
              showNotice(errorText(json.message), 'error');
              // A refused action may mean the status moved on meanwhile: catch up now.
              schedulePoll(0);
            }
          });
      })
      .catch(function () {
        showNotice(data.msgNetworkError, 'error');
      })
      .then(function () {
        button.disabled = false;
        button.textContent = label;
        form.removeAttribute('aria-busy');
      });
  }

  if (el.paidForm) {
    el.paidForm.addEventListener('submit', function (event) {
      event.preventDefault();
      send(el.paidForm, null);
    });
  }

  if (el.proofForm) {
    el.proofForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var input = el.proofForm.querySelector('input[type="file"]');
      var file = input && input.files && input.files[0];
      if (!file) {
        showNotice(data.msgFileMissing, 'error');
        input.focus();
        return;
      }
      if (file.size > MAX_RECEIPT_BYTES) {
        showNotice(data.msgFileTooLarge, 'error');
        input.focus();
        return;
      }
      send(el.proofForm, new FormData(el.proofForm));
    });
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(
        function () {
          return true;
        },
        function () {
          return copyWithSelection(text);
        },
      );
    }
    return Promise.resolve(copyWithSelection(text));
  }

  /* Plain-http deployments have no Clipboard API; a selected off-screen field still copies. */
  function copyWithSelection(text) {
    var field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.className = 'offscreen';
    document.body.appendChild(field);
    field.select();
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    remove(field);
    return ok;
  }

  Array.prototype.forEach.call(document.querySelectorAll('button.copy'), function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      copyText(button.dataset.copy).then(function (ok) {
        if (!el.copyStatus) return;
        // Emptied first so that copying twice is announced twice.
        el.copyStatus.textContent = '';
        setTimeout(function () {
          el.copyStatus.textContent = ok ? data.msgCopied : data.msgCopyFailed;
        }, 50);
        button.classList.toggle('is-copied', ok);
      });
    });
  });

  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible') {
      tick();
      schedulePoll(0);
    }
  });

  if (data.final === 'true') {
    finish({ redirectUrl: data.redirectUrl }, true);
    return;
  }
  tickTimer = setInterval(tick, 500);
  schedulePoll(pollMs);
})();
