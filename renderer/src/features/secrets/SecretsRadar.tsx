/** Mounted once by the shell: keeps the radar's counts and progress up to date. */
import { useEffect } from 'react';
import { useServices } from '../../app-context';
import { followSecrets } from './secrets-state';
import './secrets.css';

export function SecretsRadar() {
  const { api } = useServices();
  useEffect(() => followSecrets(api), [api]);
  return null;
}
