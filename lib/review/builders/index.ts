import { apply } from './apply';
import { attach, connect, exec, portForward, proxy } from './connect';
import { create } from './create';
import { deleteCollection, remove } from './delete';
import { bind, debug, evict, finalize, resize, scale, status, token } from './subresources';
import { patch, update } from './update';

export type { RequestOptions, CreateVia, UpdateVia } from './options';
export type { CreateOptions } from './create';
export type { UpdateOptions, PatchOptions } from './update';
export type { ApplyOptions } from './apply';
export type { DeleteOptions } from './delete';
export type { ConnectOptions } from './connect';
export type { StatusOptions, ScaleOptions, TokenOptions, DebugOptions } from './subresources';
export type { PatchType } from './merge-patch';

/**
 * Builders for the requests kube-apiserver admits, shaped as in fixtures/apiserver-captures: each
 * client action's operation, options object, subresource kind and managedFields.
 */
export const review = {
  create,
  update,
  patch,
  apply,
  delete: remove,
  deleteCollection,
  connect,
  exec,
  attach,
  portForward,
  proxy,
  status,
  scale,
  evict,
  bind,
  token,
  debug,
  finalize,
  resize,
};
