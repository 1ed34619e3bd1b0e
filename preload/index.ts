// Sandboxed preload: exposes exactly the contract's functions as `window.api`, nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { buildApi } from './build-api';

contextBridge.exposeInMainWorld('api', buildApi(ipcRenderer));
