/**
 * React DOM's shared internals (react-dom/cjs/react-dom.production.js builds the same object), which is all that
 * react-dom/client takes from the package 'react-dom' (vite.config.ts lateReactDom). React DOM's other exports
 * (flushSync, createPortal, the resource hints) come with the toaster, their only user, and share this object:
 * the client fills in its dispatcher (`d`) when it starts. CommonJS, as the two modules that require it are: an
 * ES module would cost the first load a converter.
 */
function noop() {}

exports.__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE = {
  d: {
    f: noop,
    r: () => {
      // React's own words for it (error 522): requestFormReset called outside a transition, before the client ran.
      throw new Error('Minified React error #522; visit https://react.dev/errors/522 for the full message');
    },
    D: noop,
    C: noop,
    L: noop,
    m: noop,
    X: noop,
    S: noop,
    M: noop,
  },
  p: 0,
  findDOMNode: null,
};
