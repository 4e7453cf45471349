// The drive's calls (/api/{db}/_drive/…, SPEC §3 CloudFile): listing,
// usage, entries, content, versions, trash and the resumable uploads.

import { api, enc } from '../../../lib/api';
import type { Doc, WriteResult } from '../../../lib/couch';

export type EntryKind = 'file' | 'dir' | 'file_deleted' | 'dir_deleted';

export interface CloudFile extends Doc {
  name: string;
  dir_id: string;
  kind: EntryKind;
  color?: string;
  description?: string;
  starred?: boolean;
  max_versions?: number;
  stage?: string;
  fullpath?: string;
  size?: number;
  bytes?: number;
  versions?: unknown[];
  content_type?: string;
  updated_at?: string;
  created_at?: string;
}

export interface PathItem {
  _id: string;
  name: string;
}

export interface DirListing {
  dir: CloudFile | null;
  path: PathItem[];
  entries: CloudFile[];
  next?: string | null;
}

export interface Usage {
  bytes: number;
  limit: number;
  plan: string;
  files: number;
  dirs: number;
  trash_bytes: number;
  trash_entries: number;
  /** The WebDAV address when the server names one (the cloud's WebDAV function); else <origin>/dav/. */
  dav_url?: string;
}

const drive = (db: string) => `${enc(db)}/_drive`;

export const PAGE_SIZE = 100;

export const fetchDir = (db: string, dirId: string | undefined, after?: string | null) =>
  api.get<DirListing>(`${drive(db)}/dirs/${enc(dirId || 'root')}`, { limit: PAGE_SIZE, after: after ?? undefined });

export const fetchUsage = (db: string) => api.get<Usage>(`${drive(db)}/usage`);

export const diskKeys = {
  all: (db: string) => ['disk', db] as const,
  dir: (db: string, dirId: string | undefined) => ['disk', db, 'dir', dirId || 'root'] as const,
  usage: (db: string) => ['disk', db, 'usage'] as const,
  trash: (db: string) => ['disk', db, 'trash'] as const,
  versions: (db: string, id: string) => ['disk', db, 'versions', id] as const,
};

export const createEntry = (db: string, kind: 'file' | 'dir', name: string, dirId: string) =>
  api.post<WriteResult>(enc(db), { klass: 'CloudFile', kind, name, dir_id: dirId });

export const updateEntry = (db: string, doc: CloudFile) => api.put<WriteResult>(`${enc(db)}/${enc(doc._id)}`, doc);

export const getEntry = (db: string, id: string) => api.get<CloudFile>(`${enc(db)}/${enc(id)}`);

export const contentUrl = (db: string, id: string, version?: string) =>
  `/api/${drive(db)}/files/${enc(id)}/content${version ? `?version=${enc(version)}` : ''}`;

export interface Version {
  id: string;
  size: number;
  sha256?: string;
  etag?: string;
  content_type?: string;
  modified: string;
  by?: { _id: string; label: string };
  restored_from?: string;
}

export interface VersionList {
  id: string;
  rev: string;
  name: string;
  max_versions: number;
  versions: Version[];
}

export const fetchVersions = (db: string, id: string) => api.get<VersionList>(`${drive(db)}/files/${enc(id)}/versions`);
export const restoreVersion = (db: string, id: string, v: string, rev?: string) =>
  api.post<WriteResult>(`${drive(db)}/files/${enc(id)}/versions/${enc(v)}/restore`, {}, { rev });
export const deleteVersion = (db: string, id: string, v: string, rev?: string) =>
  api.del<WriteResult>(`${drive(db)}/files/${enc(id)}/versions/${enc(v)}`, { rev });

export const trashEntry = (db: string, id: string, rev?: string) =>
  api.post<WriteResult>(`${drive(db)}/files/${enc(id)}/trash`, {}, { rev });
export const restoreEntry = (db: string, id: string) => api.post<WriteResult>(`${drive(db)}/files/${enc(id)}/restore`, {});
export const fetchTrash = (db: string) => api.get<{ entries: CloudFile[] }>(`${drive(db)}/trash`);
export const emptyTrash = (db: string) => api.del<{ ok: boolean; deleted: number; bytes: number }>(`${drive(db)}/trash`);
export const deleteTrashed = (db: string, id: string) => api.del<{ ok: boolean }>(`${drive(db)}/trash/${enc(id)}`);

export interface UploadState {
  upload_id: string;
  /** "server": chunks through the server; "presigned": parts straight to S3. */
  mode?: 'server' | 'presigned';
  size: number;
  /** server mode: the bytes the server has, and the chunk size (64 KB). */
  received?: number;
  chunk_size?: number;
  /** presigned mode: the part size and how many parts. */
  part_size?: number;
  parts?: number;
}

export interface PresignedPart {
  number: number;
  url: string;
}

export const startUpload = (db: string, body: { file_id?: string; dir_id?: string; name?: string; size: number; content_type?: string }) =>
  api.post<UploadState>(`${drive(db)}/uploads`, body);
export const getUpload = (db: string, u: string) => api.get<UploadState>(`${drive(db)}/uploads/${enc(u)}`);
export const commitUpload = (db: string, u: string, rev: string, parts?: Array<{ number: number; etag: string }>) =>
  api.post<{ ok: boolean; id: string; rev: string; version: unknown; doc: CloudFile }>(`${drive(db)}/uploads/${enc(u)}/commit`, {
    rev,
    ...(parts ? { parts } : {}),
  });
export const presignParts = (db: string, u: string, parts: number[]) =>
  api.post<{ upload_id: string; part_size: number; parts: PresignedPart[] }>(`${drive(db)}/uploads/${enc(u)}/parts`, { parts }).then((a) => a.parts);
export const cancelUpload = (db: string, u: string) => api.del<{ ok: boolean }>(`${drive(db)}/uploads/${enc(u)}`);
export const uploadChunkPath = (db: string, u: string) => `${drive(db)}/uploads/${enc(u)}`;

/** The WebDAV address (shared/dav, mounted at /dav/). */
export const webdavUrl = (origin: string, configured?: string) => configured || `${origin}/dav/`;

export interface CreatedToken {
  ok: boolean;
  id: string;
  rev: string;
  /** The secret: shown this once. */
  token: string;
}

/** An API token for WebDAV clients: the same call as the profile's tokens tab. */
export const createDavToken = (userDb: string, db: string, permissions: 'read' | 'read-write', description: string) =>
  api.post<CreatedToken>(`${enc(userDb)}/_design/token/_update/create`, { description, permissions, dbs: [db] });
