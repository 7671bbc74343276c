// Loads the JavaScript port for the "Try it" page, then starts the page (app.js).
// Over HTTP the page imports the port's ES modules as they are. Browsers load no
// module from file://, so there it reads the same modules as one classic script,
// written by the documentation build.
(function () {
  'use strict';
  var here = document.currentScript.src.replace(/[^/]*$/, '');
  var script = document.createElement('script');
  script.onerror = function () {
    document.getElementById('cs-loading').textContent = 'The rules could not be loaded (' + script.src + ').';
  };
  if (location.protocol === 'file:') {
    script.src = here + 'port-bundle.js';
    script.onload = function () { window.cantstopTryIt(window.cantstopPort); };
  } else {
    script.type = 'module';
    script.src = here + 'modules.js';
  }
  document.head.appendChild(script);
})();
