import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { initTheme } from './lib/theme.svelte';
import { locale, setLang } from './lib/i18n.svelte';
import { api, startBackend } from './lib/backend';

// First: in web mode this takes the token out of the address bar before anything else runs.
startBackend();
// Asked before the page is drawn: the answer travels while the components mount, and the
// status bar (and UIReady) need not wait for them.
const firstStatus = api.Status();
firstStatus.catch(() => {}); // the status store reports a failure when it takes the answer
initTheme();
setLang(locale.lang);

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');

export default mount(App, { target, props: { firstStatus } });
