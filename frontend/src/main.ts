import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { initTheme } from './lib/theme.svelte';
import { locale, setLang } from './lib/i18n.svelte';

initTheme();
setLang(locale.lang);

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');

export default mount(App, { target });
