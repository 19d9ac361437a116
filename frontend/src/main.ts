import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { initTheme } from './lib/theme.svelte';
import { locale, setLang } from './lib/i18n.svelte';
import { startBackend } from './lib/backend';

// First: in web mode this takes the token out of the address bar before anything else runs.
startBackend();
initTheme();
setLang(locale.lang);

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');

export default mount(App, { target });
