/**
 * The svc/calculator block in the editor. Plain JavaScript on WordPress's globals (no build step):
 * the settings sit in the sidebar, and the preview is the real widget, mounted by the loader
 * when the placeholder appears (a changed setting gives a new placeholder, hence a new widget).
 */
((wp) => {
  const { registerBlockType } = wp.blocks;
  const { InspectorControls, useBlockProps } = wp.blockEditor;
  const { PanelBody, SelectControl, TextControl } = wp.components;
  const { createElement: el, Fragment } = wp.element;
  const { __ } = wp.i18n;

  const CALCULATORS = [
    { value: 'estate-tax', label: __('Estate tax', 'svc') },
    { value: 'inheritance-tax', label: __('Inheritance tax', 'svc') },
    { value: 'probate-fees', label: __('California probate fees', 'svc') },
    { value: 'executor-commission', label: __('New York executor commission', 'svc') },
    { value: 'rmd', label: __('Required minimum distribution', 'svc') },
  ];
  const STATES =
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
      ' ',
    );
  const HEX = /^#[0-9a-fA-F]{6}$/;

  function Edit({ attributes, setAttributes }) {
    const { calculator, state, theme, accent } = attributes;
    const connected = Boolean(window.svcEditor?.connected);
    const placeholder = { 'data-svc-calculator': calculator };
    if (state) placeholder['data-svc-state'] = state;
    if (theme && theme !== 'auto') placeholder['data-svc-theme'] = theme;
    if (HEX.test(accent)) placeholder['data-svc-accent'] = accent.toLowerCase();
    placeholder.key = [calculator, state, theme, accent].join('|');
    return el(
      Fragment,
      null,
      el(
        InspectorControls,
        null,
        el(
          PanelBody,
          { title: __('Calculator', 'svc') },
          el(SelectControl, {
            label: __('Calculator', 'svc'),
            value: calculator,
            options: CALCULATORS,
            onChange: (value) => setAttributes({ calculator: value }),
          }),
          el(SelectControl, {
            label: __('State', 'svc'),
            value: state,
            options: [{ value: '', label: __('Visitor chooses', 'svc') }].concat(
              STATES.map((s) => ({ value: s, label: s })),
            ),
            onChange: (value) => setAttributes({ state: value }),
          }),
          el(SelectControl, {
            label: __('Theme', 'svc'),
            value: theme,
            options: [
              { value: 'auto', label: __('Follow the visitor’s setting', 'svc') },
              { value: 'light', label: __('Light', 'svc') },
              { value: 'dark', label: __('Dark', 'svc') },
            ],
            onChange: (value) => setAttributes({ theme: value }),
          }),
          el(TextControl, {
            label: __('Accent colour (#rrggbb)', 'svc'),
            value: accent,
            help: accent && !HEX.test(accent) ? __('Use six hex digits, like #1f4e79.', 'svc') : '',
            onChange: (value) => setAttributes({ accent: value.trim() }),
          }),
        ),
      ),
      el(
        'div',
        useBlockProps({ className: 'svc-calculator-preview' }),
        connected
          ? el('div', placeholder)
          : el(
              'p',
              { className: 'svc-missing' },
              __('svc calculator: connect this site in Settings → svc to preview it.', 'svc'),
            ),
      ),
    );
  }

  registerBlockType('svc/calculator', { edit: Edit, save: () => null });
})(window.wp);
