/** Mounted once by the shell: keeps the radar's counts and progress up to date. */
import { useEffect } from 'react';
import { useActions } from '../../app-context';
import './secrets.css';

export function SecretsRadar() {
  const actions = useActions();
  useEffect(() => actions.followSecrets(), [actions]);
  return null;
}
